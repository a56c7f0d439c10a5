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
// that supplies the value instead.
func terminalPrompt(stdin io.Reader, stderr io.Writer) schemes.Prompter {
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func(context.Context, string, bool) (string, error) { return "", errNoTerminal }
	}
	return func(ctx context.Context, prompt string, secret bool) (string, error) {
		fmt.Fprint(stderr, prompt)
		if secret {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(stderr)
			return string(b), err
		}
		line, err := bufio.NewReader(f).ReadString('\n')
		return strings.TrimRight(line, "\r\n"), err
	}
}
