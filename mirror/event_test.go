package mirror

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestDurationsInJSON: duration_s is the duration in seconds as a person
// writes it (1.61), never a float's artifact (1.6099999999999999).
func TestDurationsInJSON(t *testing.T) {
	ev, _ := json.Marshal(Event{Type: EventGet, Path: "a", Duration: 1610 * time.Millisecond})
	sum, _ := json.Marshal(Summary{Duration: 1610 * time.Millisecond})
	for _, b := range [][]byte{ev, sum} {
		if !strings.Contains(string(b), `"duration_s":1.61`) || strings.Contains(string(b), "1.6099") {
			t.Errorf("%s: want duration_s 1.61", b)
		}
	}
}
