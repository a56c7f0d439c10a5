package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/urlget/urlget/schemes"
)

// errNoTerminal is returned by the prompter when nobody can answer.
var errNoTerminal = errors.New("no terminal to ask on")

// terminalPrompt asks on the controlling terminal when stdin is one, with
// echo off for secrets; otherwise it fails so handlers can name the flag
// that supplies the value instead. The prompt (a server's text, for a
// Gopher+ form) is shown with its control characters escaped but for its
// line breaks, and no progress line is drawn while it waits.
func terminalPrompt(stdin io.Reader, con *console) schemes.Prompter {
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func(context.Context, string, bool) (string, error) { return "", errNoTerminal }
	}
	return func(ctx context.Context, prompt string, secret bool) (string, error) {
		release := con.hold()
		defer release()
		fmt.Fprint(con.w, escapeLines(prompt))
		if secret {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(con.w)
			return string(b), err
		}
		line, err := bufio.NewReader(f).ReadString('\n')
		return strings.TrimRight(line, "\r\n"), err
	}
}

// escapeLines is escapeControls on each line of s, keeping the "\n"s
// that lay a prompt out (a question, then its choices).
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = escapeControls(l)
	}
	return strings.Join(lines, "\n")
}
