package gopher

import (
	"context"
	"fmt"

	"github.com/urlget/urlget/schemes"
)

var _ schemes.Answerer = (*URL)(nil)

// form is what a form URL carries besides its text (schemes.Answerer): a
// Gopher+ submission has no URL syntax a person would write (§3.4.9's
// is the whole data block, TABs and CRLFs included), so the answers a
// caller gives travel here and String stays the "?" URL, never showing
// them (an AskP answer is a password).
type form struct {
	askOnly bool     // retrieve the questions, submit nothing (AskOnly)
	answers []string // the values to submit, one a question (WithAnswers)
}

// isForm reports whether g names a +ASK form: its Gopher+ string is "?".
func (g *URL) isForm() error {
	if g.Plus == nil || *g.Plus != "?" {
		return g.u.SyntaxError("plus", `not a Gopher+ form: the URL's Gopher+ string is not "?" (write sel%09%09?)`)
	}
	return nil
}

// AskOnly is the form's URL retrieved for its questions alone
// (schemes.Answerer): the handler asks the server for the +ASK block
// and fails with them, sending no answers — neither Handler.Form's nor a
// terminal's nor the defaults.
func (g *URL) AskOnly() (schemes.Locator, error) {
	if err := g.isForm(); err != nil {
		return nil, err
	}
	n := *g
	n.form = &form{askOnly: true}
	return &n, nil
}

// WithAnswers is the form's URL that submits values, one for each
// question of the +ASK block in its order, as they are
// (schemes.Answerer): Handler.Form and the terminal are not asked. Its
// String is g's.
func (g *URL) WithAnswers(values []string) (schemes.Locator, error) {
	if err := g.isForm(); err != nil {
		return nil, err
	}
	n := *g
	n.form = &form{answers: append([]string{}, values...)}
	return &n, nil
}

// formAnswers are the values g's form is submitted with: the ones g
// carries (WithAnswers), else answerForm's from Handler.Form, the terminal
// and the defaults. A form asked for its questions only (AskOnly), or
// one with questions no answer is found for, fails with KindUsage
// carrying the questions (schemes.Error.Form), which a caller with
// a form of its own (the gateway) shows.
func (h *Handler) formAnswers(ctx context.Context, g *URL, qs []question, prompt schemes.Prompter) ([]string, error) {
	fail := func(msg string) error {
		return &schemes.Error{Scheme: g.u.Scheme, Phase: "ask", Kind: schemes.KindUsage, Part: "form", Msg: msg, Form: &schemes.Form{Questions: contract(qs)}}
	}
	switch f := g.form; {
	case f != nil && f.askOnly:
		return nil, fail(fmt.Sprintf("the item asks %d questions before it answers (+ASK)", len(qs)))
	case f != nil:
		if len(f.answers) != len(qs) {
			return nil, fail(fmt.Sprintf("the form asks %d questions, %d answers were given: has it changed?", len(qs), len(f.answers)))
		}
		return f.answers, nil
	}
	vals, err := answerForm(ctx, qs, h.Form, prompt, h.words)
	if err != nil {
		return nil, fail(err.Error())
	}
	return vals, nil
}

// questionKinds map the kinds of a +ASK block to the contract's; a kind
// this client does not know is asked, and sent, as a line (answerForm and
// formSubmission treat it as Ask).
var questionKinds = map[string]schemes.QuestionKind{
	"Ask": schemes.QuestionText, "AskP": schemes.QuestionPassword, "AskL": schemes.QuestionLines,
	"AskF": schemes.QuestionFile, "Choose": schemes.QuestionChoice, "ChooseF": schemes.QuestionChoice,
	"Select": schemes.QuestionCheck, "Note": schemes.QuestionNote,
}

// contract gives qs as the contract's questions, in order.
func contract(qs []question) []schemes.Question {
	out := make([]schemes.Question, len(qs))
	for i, q := range qs {
		k, ok := questionKinds[q.Kind]
		if !ok {
			k = schemes.QuestionText
		}
		out[i] = schemes.Question{Kind: k, Prompt: q.Prompt, Default: q.Default, Choices: q.Choices}
	}
	return out
}
