package gopher

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestAnswererURLs: only a "?" URL names a form; the answers a URL
// carries never show in its text, and are the caller's copy.
func TestAnswererURLs(t *testing.T) {
	for _, raw := range []string{"gopher://h/0/f", "gopher://h/0/f%09%09+", "gopher://h/0/f%09%09!", "gopher://h/7/s%09words"} {
		g := mustParse(t, raw)
		_, err1 := g.AskOnly()
		_, err2 := g.WithAnswers([]string{"x"})
		if schemes.KindOf(err1) != schemes.KindUsage || schemes.KindOf(err2) != schemes.KindUsage {
			t.Errorf("%s: AskOnly %v, WithAnswers %v; want usage errors", raw, err1, err2)
		}
	}
	g := mustParse(t, "gopher://h/0/f%09%09?")
	vals := []string{"Ada", "s3cret"}
	ask, err := g.AskOnly()
	if err != nil {
		t.Fatal(err)
	}
	sub, err := g.WithAnswers(vals)
	if err != nil {
		t.Fatal(err)
	}
	vals[0] = "changed"
	for _, l := range []schemes.Locator{ask, sub} {
		if l.String() != g.String() || l.Redacted() != g.String() {
			t.Errorf("%s / %s, want %s", l.String(), l.Redacted(), g)
		}
	}
	if got := sub.(*URL).form.answers; !reflect.DeepEqual(got, []string{"Ada", "s3cret"}) || g.form != nil {
		t.Errorf("answers %q (the original's form %v)", got, g.form)
	}
}

// questionsWant are askReply's questions in the contract's terms.
var questionsWant = []schemes.Question{
	{Kind: schemes.QuestionText, Prompt: "What is your name?", Default: "Anonymous"},
	{Kind: schemes.QuestionPassword, Prompt: "Password?"},
	{Kind: schemes.QuestionChoice, Prompt: "Favourite protocol?", Default: "gopher", Choices: []string{"gopher", "ftp", "http"}},
	{Kind: schemes.QuestionLines, Prompt: "Comments?"},
	{Kind: schemes.QuestionCheck, Prompt: "Subscribe?", Default: "1"},
	{Kind: schemes.QuestionNote, Prompt: "Thanks for filling this in."},
}

// formOfErr returns err's form, failing unless err is a usage error
// that carries one.
func formOfErr(t *testing.T, err error) *schemes.Form {
	t.Helper()
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindUsage || se.Form == nil {
		t.Fatalf("err %v, want a usage error with the form's questions", err)
	}
	return se.Form
}

// TestFormAnswerer: AskOnly asks the server for the questions alone and
// submits nothing, whatever --form or a terminal would answer;
// WithAnswers submits exactly its values, without asking anyone, and
// traces the password as a secret; a count that no longer fits fails.
func TestFormAnswerer(t *testing.T) {
	h := &Handler{Form: Answers{"1": "FromFlag", "2": "flagpw", "4": "x"}}
	prompt := func(context.Context, string, bool) (string, error) {
		t.Error("the terminal was asked")
		return "typed", nil
	}
	req := func(l schemes.Locator) *schemes.Request {
		return &schemes.Request{URL: l, Dialer: &transport.Dialer{}, Prompt: prompt}
	}

	s := newFakeServer(t, askReply)
	ask, err := mustParse(t, s.url("/0/form.txt%09%09?")).AskOnly()
	if err != nil {
		t.Fatal(err)
	}
	_, err = fetchReq(t, h, req(ask))
	if got := formOfErr(t, err).Questions; !reflect.DeepEqual(got, questionsWant) {
		t.Errorf("questions %#v\nwant %#v", got, questionsWant)
	}
	if got := s.requests(); len(got) != 1 || got[0] != "/form.txt\t!\r\n" {
		t.Errorf("AskOnly sent %q, want the attribute request alone", got)
	}

	s = newFakeServer(t, askReply, "+-1\r\nThanks, Bob\r\n.\r\n")
	sub, err := mustParse(t, s.url("/0/form.txt%09%09?")).WithAnswers([]string{"Bob", "pw", "ftp", "a\nb", "0", "note's value"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := fetchReq(t, h, req(sub))
	if err != nil || r.body != "Thanks, Bob\n" {
		t.Fatalf("WithAnswers: %q, %v", r.body, err)
	}
	want := "/form.txt\t+\t1\r\n+-1\r\nBob\r\npw\r\nftp\r\n2\r\na\r\nb\r\n0\r\n.\r\n"
	if got := s.requests(); len(got) != 2 || got[1] != want {
		t.Errorf("sent %q, want %q", got, want)
	}

	s = newFakeServer(t, askReply)
	short, _ := mustParse(t, s.url("/0/form.txt%09%09?")).WithAnswers([]string{"Bob"})
	_, err = fetchReq(t, h, req(short))
	if f := formOfErr(t, err); len(f.Questions) != 6 || !strings.Contains(err.Error(), "6 questions, 1 answers") {
		t.Errorf("a short answer list: %v", err)
	}
	if got := s.requests(); len(got) != 1 {
		t.Errorf("a short answer list sent %q", got)
	}
}

// TestFormAnswerSecret: a password given through WithAnswers is handed
// to the trace as a secret, so that -v output never shows it.
func TestFormAnswerSecret(t *testing.T) {
	s := newFakeServer(t, askReply, "+-1\r\nok\r\n.\r\n")
	sub, _ := mustParse(t, s.url("/0/form.txt%09%09?")).WithAnswers([]string{"Bob", "pw-secret", "ftp", "", "1", ""})
	tr := &secretTrace{}
	if _, err := (&Handler{}).Fetch(context.Background(), &schemes.Request{URL: sub, Dialer: &transport.Dialer{}, Trace: tr}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tr.secrets, []string{"pw-secret"}) {
		t.Errorf("secrets %q", tr.secrets)
	}
}

// secretTrace records what it is told is secret.
type secretTrace struct {
	schemes.NopTrace
	secrets []string
}

func (t *secretTrace) Secret(s string) { t.secrets = append(t.secrets, s) }

// TestFormMissingAnswerCarriesForm: the command's failure for a question
// nobody answered (no terminal, no --form) keeps its exit status and
// message, naming the options in the caller's words, and carries the
// questions.
func TestFormMissingAnswerCarriesForm(t *testing.T) {
	for words, want := range map[*schemes.Words]string{
		{}:           `has no answer: give one with option form "Password?=VALUE" or option form-json FILE`,
		&callerWords: `has no answer: give one with <form> "Password?=VALUE" or <form-json> FILE`,
	} {
		s := newFakeServer(t, askReply)
		_, err := fetch(t, &Handler{words: *words}, s.url("/0/form.txt%09%09?"))
		if f := formOfErr(t, err); !reflect.DeepEqual(f.Questions, questionsWant) ||
			!strings.Contains(err.Error(), `form question 2 (AskP: "Password?") `+want) {
			t.Errorf("err %v, questions %#v", err, f.Questions)
		}
	}
}

// TestMenuForm: a menu's +ASK item ("?") keeps its plain Locator, and
// gets its form's "?" URL as Form; other items have none.
func TestMenuForm(t *testing.T) {
	s := newFakeServer(t, "0Form\t/form.txt\texample.org\t7071\t?\r\n1Docs\t/docs\texample.org\t70\t+\r\n.\r\n")
	r, err := fetch(t, &Handler{}, s.url("/1/"))
	if err != nil || len(r.entries) != 2 {
		t.Fatalf("%v, %+v", err, r.entries)
	}
	e := r.entries[0]
	if e.Locator.String() != "gopher://example.org:7071/0/form.txt" || e.Form == nil || e.Form.String() != "gopher://example.org:7071/0/form.txt%09%09?" {
		t.Errorf("the form item: %v, form %v", e.Locator, e.Form)
	}
	if _, ok := e.Form.(schemes.Answerer); !ok {
		t.Errorf("its Form %T is no Answerer", e.Form)
	}
	if r.entries[1].Form != nil {
		t.Errorf("a menu without a form has Form %v", r.entries[1].Form)
	}
}
