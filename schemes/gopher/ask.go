package gopher

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// question is one line of a +ASK block: ` <Kind>: <prompt>[TAB default |
// TAB choice TAB choice…]` (Gopher+ §2.6).
type question struct {
	Kind    string   `json:"kind"`              // Ask, AskP, AskL, AskF, Choose, ChooseF, Select, Note
	Prompt  string   `json:"prompt"`            // the question text
	Default string   `json:"default"`           // Ask/AskP default; Select "0"/"1"
	Choices []string `json:"choices,omitempty"` // Choose/ChooseF
}

// Questions parses the +ASK block; nil if there is none.
func (a attributes) Questions() []question {
	b := a.Block("ASK")
	if b == nil {
		return nil
	}
	var qs []question
	for _, l := range b.Lines {
		kind, rest, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok || kind == "" {
			continue
		}
		f := strings.Split(strings.TrimPrefix(rest, " "), "\t")
		q := question{Kind: kind, Prompt: f[0]}
		switch kind {
		case "Choose", "ChooseF":
			q.Choices = f[1:]
			if len(q.Choices) > 0 {
				q.Default = q.Choices[0]
			}
		case "Select":
			// "Subscribe?:1": the default state follows the last ':'.
			q.Default = "0"
			if i := strings.LastIndexByte(q.Prompt, ':'); i >= 0 {
				if v := q.Prompt[i+1:]; v == "0" || v == "1" {
					q.Prompt, q.Default = q.Prompt[:i], v
				}
			}
		default:
			if len(f) > 1 {
				q.Default = f[1]
			}
		}
		qs = append(qs, q)
	}
	return qs
}

// Answers are values for a form, looked up by question prompt (exactly,
// or ignoring case and a trailing "?" or ":") or by 1-based position
// ("1", "2", …). AskL values hold their lines separated by "\n".
type Answers map[string]string

func (a Answers) lookup(i int, q question) (string, bool) {
	if v, ok := a[strconv.Itoa(i+1)]; ok {
		return v, true
	}
	if v, ok := a[q.Prompt]; ok {
		return v, true
	}
	norm := func(s string) string { return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), "?: ")) }
	for k, v := range a {
		if norm(k) == norm(q.Prompt) {
			return v, true
		}
	}
	return "", false
}

// answerForm fills the form: each question's value from ans, else from
// prompt (nil: no terminal), else its default. A question with no value
// from any of them fails naming the form and form-json options in words.
func answerForm(ctx context.Context, qs []question, ans Answers, prompt schemes.Prompter, words schemes.Words) ([]string, error) {
	vals := make([]string, len(qs))
	for i, q := range qs {
		if q.Kind == "Note" {
			if prompt != nil && ans == nil {
				prompt(ctx, q.Prompt+"\n(press Enter) ", false)
			}
			continue
		}
		if v, ok := ans.lookup(i, q); ok {
			vals[i] = v
			continue
		}
		if prompt != nil {
			v, err := ask(ctx, q, prompt)
			if err == nil {
				vals[i] = v
				continue
			}
		}
		if q.Default != "" || q.Kind == "Select" {
			vals[i] = q.Default
			continue
		}
		return nil, fmt.Errorf("form question %d (%s: %q) has no answer: give one with %s %q or %s FILE",
			i+1, q.Kind, q.Prompt, words.Option("form"), q.Prompt+"=VALUE", words.Option("form-json"))
	}
	return vals, nil
}

// ask puts one question to the person at the terminal.
func ask(ctx context.Context, q question, prompt schemes.Prompter) (string, error) {
	p := q.Prompt
	switch q.Kind {
	case "Choose", "ChooseF":
		var b strings.Builder
		b.WriteString(p + "\n")
		for i, c := range q.Choices {
			fmt.Fprintf(&b, "  %d) %s\n", i+1, c)
		}
		b.WriteString("choice [1]: ")
		v, err := prompt(ctx, b.String(), false)
		if err != nil {
			return "", err
		}
		if v == "" {
			return q.Default, nil
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= len(q.Choices) {
			return q.Choices[n-1], nil
		}
		return v, nil
	case "Select":
		v, err := prompt(ctx, p+" [y/n, default "+map[string]string{"0": "n", "1": "y"}[q.Default]+"]: ", false)
		if err != nil {
			return "", err
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "":
			return q.Default, nil
		case "y", "yes", "1":
			return "1", nil
		}
		return "0", nil
	case "AskL":
		var lines []string
		first := p + " (end with a line \".\")\n"
		for {
			v, err := prompt(ctx, first, false)
			if err != nil {
				return "", err
			}
			first = ""
			if v == "." {
				return strings.Join(lines, "\n"), nil
			}
			lines = append(lines, v)
		}
	}
	if q.Default != "" {
		p += " [" + q.Default + "]"
	}
	v, err := prompt(ctx, p+": ", q.Kind == "AskP")
	if err != nil {
		return "", err
	}
	if v == "" {
		v = q.Default
	}
	return v, nil
}

// dataBlock is the data block of a form submission (RFC 1738 §3.4.9,
// Gopher+ §2.4), built from the answers vals, one for each of qs:
// `+-1 CRLF <values each CRLF> . CRLF`. AskL and AskF values are sent as a
// line with their line count, then the lines (UMN client); Note questions
// send nothing; any other value is one line, its line ends made spaces.
//
// An answer cannot end the block early nor add a line of its own making:
// its CR, LF and CRLF all become line ends the count or the joining
// accounts for, each line is sent with CRLF, and a line that starts with
// "." is sent with one more (dot-stuffed, so the only "." line is the
// block's end). A NUL, which a server written in C would take for the end
// of the line, is refused with a KindSafety error naming the question.
func dataBlock(scheme string, qs []question, vals []string) (string, error) {
	var b strings.Builder
	b.WriteString("+-1\r\n")
	line := func(s string) {
		if strings.HasPrefix(s, ".") {
			s = "." + s
		}
		b.WriteString(s + "\r\n")
	}
	for i, q := range qs {
		if q.Kind == "Note" {
			continue
		}
		if strings.IndexByte(vals[i], 0) >= 0 {
			return "", &schemes.Error{Scheme: scheme, Phase: "request", Kind: schemes.KindSafety, Part: "form answer",
				Msg: fmt.Sprintf("the answer to question %d (%q) holds a NUL, which would end its line early for a server written in C", i+1, q.Prompt)}
		}
		v := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(vals[i])
		switch q.Kind {
		case "AskL", "AskF":
			var ls []string
			if v != "" {
				ls = strings.Split(strings.TrimSuffix(v, "\n"), "\n")
			}
			b.WriteString(strconv.Itoa(len(ls)) + "\r\n")
			for _, l := range ls {
				line(l)
			}
		default:
			line(strings.ReplaceAll(v, "\n", " "))
		}
	}
	b.WriteString(".\r\n")
	return b.String(), nil
}
