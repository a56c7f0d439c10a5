package mailto

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	// Sending a message retrieves nothing a file could hold.
	schemestest.LocalNames(t, Parse, map[string]string{
		"mailto:a@example.com":               "",
		"mailto:a@example.com?subject=f.txt": "",
	})
}
