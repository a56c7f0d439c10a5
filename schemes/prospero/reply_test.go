package prospero

import (
	"reflect"
	"testing"
)

// TestParseReplyOfTheNotes reads the §10 lookup and listing replies.
func TestParseReplyOfTheNotes(t *testing.T) {
	lookup := "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n" +
		"ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' ''\n" +
		"ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D 127.0.0.1 ASCII '/pub/README' BINARY\n"
	r, err := parseReply([]byte(lookup))
	if err != nil {
		t.Fatal(err)
	}
	ams := accessMethods(r.objectAttrs)
	want := [][]string{{"PROSPERO-CONTENTS", "", "", "", ""}, {"LOCAL", "", "", "", ""},
		{"AFTP", "INTERNET-D", "127.0.0.1", "ASCII", "/pub/README", "BINARY"}}
	if !reflect.DeepEqual(ams, want) {
		t.Errorf("access methods %q", ams)
	}
	listing := "LINK  L EXTERNAL ftp-readme INTERNET-D FTP.EXAMPLE.ORG ASCII '/pub/README' 0\n" +
		"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' BINARY\n" +
		"LINK  L EXTERNAL gopher-about INTERNET-D GOPHER.EXAMPLE.ORG(70) ASCII 0'/about.txt' 0\n" +
		"ATTRIBUTE CACHED FIELD ACCESS-METHOD GOPHER '' '' '' '' TEXT\n" +
		"LINK  L DIRECTORY pub INTERNET-D 127.0.0.1(11525) ASCII '/var/spool/prospero/pfs/ftp/pub' 0\n" +
		"ATTRIBUTE OBJECT INTRINSIC SIZE ASCII '52 bytes'\n" +
		"FAILURE NOT-FOUND no such object\n" +
		"VERSION-NOT-SUPPORTED TRY 1-5"
	r, err = parseReply([]byte(listing))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.links) != 3 || r.links[1].host != "GOPHER.EXAMPLE.ORG(70)" || r.links[1].hsoname != "0/about.txt" ||
		!reflect.DeepEqual(accessMethods(r.links[0].attrs), [][]string{{"AFTP", "", "", "", "", "BINARY"}}) {
		t.Errorf("links %+v", r.links)
	}
	if a := r.links[2].attrs[0]; a.name != "SIZE" || !reflect.DeepEqual(a.values, []string{"52 bytes"}) {
		t.Errorf("SIZE %+v", a)
	}
	if len(r.statuses) != 2 || r.statuses[0].word != "FAILURE" || r.statuses[0].args[0] != "NOT-FOUND" || r.statuses[1].word != "VERSION-NOT-SUPPORTED" {
		t.Errorf("statuses %+v", r.statuses)
	}
	// A registered FIELD whose only value is the word SEQUENCE keeps it.
	if a, _ := parseAttribute([]string{"ATTRIBUTE", "LINK", "FIELD", "HOST", "SEQUENCE"}); !reflect.DeepEqual(a.values, []string{"SEQUENCE"}) {
		t.Errorf("%+v", a)
	}
}
