package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bashCompletes loads `urlget completion bash` into a real bash and
// completes the words given, the last being the one under the cursor, as
// bash does on TAB (COMP_WORDS, COMP_CWORD, the function `complete -p`
// names); one candidate a line.
const bashCompletes = `source <(urlget completion bash) || exit 1
spec=$(complete -p urlget) || exit 1
[[ $spec == "complete -F _urlget urlget" ]] || { echo "registered as: $spec" >&2; exit 1; }
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
COMPREPLY=()
_urlget
printf '%s\n' "${COMPREPLY[@]}"
`

// TestBashCompletion: in bash, `urlget --seg` completes to --segments,
// `urlget mirror --del` to --delete, each command offers only the flags
// its help lists, a flag's file or directory completes from the disk,
// and --help's topic, completion's shell and the subcommands complete
// from their words.
func TestBashCompletion(t *testing.T) {
	bin := builtCommand(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "sfile"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, tc := range []struct {
		words    []string
		want     []string // exactly, in order; nil: check has and not only
		has, not []string
	}{
		{words: []string{"urlget", "--seg"}, want: []string{"--segments"}},
		{words: []string{"urlget", "mirror", "--del"}, want: []string{"--delete"}},
		{words: []string{"urlget", "mirror", "--form"}, want: []string{}},
		{words: []string{"urlget", "--form"}, want: []string{"--form", "--form-json", "--form-data", "--form-string"}},
		{words: []string{"urlget", "mirror", "--data"}, want: []string{}},
		{words: []string{"urlget", "ls", "--smtp"}, want: []string{}},
		{words: []string{"urlget", "ls", "-"}, has: []string{"-l", "--long", "--json", "--help"}, not: []string{"--output", "-o", "--smtp-server"}},
		{words: []string{"urlget", "serve", "--allow-"}, want: []string{"--allow-file", "--allow-send", "--allow-port"}},
		{words: []string{"urlget", "comp"}, want: []string{"completion"}},
		{words: []string{"urlget", "m"}, want: []string{"mirror", "man"}},
		{words: []string{"urlget", "completion", ""}, want: []string{"bash", "zsh", "fish"}},
		{words: []string{"urlget", "--help", "gop"}, want: []string{"gopher", "gophers"}},
		{words: []string{"urlget", "help", "mi"}, want: []string{"mirror"}},
		{words: []string{"urlget", "-o", dir + "/fi"}, want: []string{dir + "/file.txt"}},
		{words: []string{"urlget", "--output", "=", dir + "/fi"}, want: []string{dir + "/file.txt"}},
		{words: []string{"urlget", "--output-dir", dir + "/s"}, want: []string{dir + "/sub"}},
		{words: []string{"urlget", "mirror", "ftp://h/", dir + "/s"}, want: []string{dir + "/sub"}},
		{words: []string{"urlget", "extract", dir + "/s"}, want: []string{dir + "/sfile", dir + "/sub"}},
		{words: []string{"urlget", "--retry", ""}, want: []string{}},
	} {
		t.Run(strings.Join(tc.words, " "), func(t *testing.T) {
			stdout, stderr, code := inShell(t, bin, "bash", bashCompletes, tc.words...)
			if code != 0 {
				t.Fatalf("bash exit %d: %s", code, stderr)
			}
			got := strings.Fields(stdout)
			slices.Sort(got)
			if tc.want != nil {
				want := slices.Clone(tc.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("completes to %q, want %q", got, want)
				}
			}
			hasAndNot(t, got, func(w string) bool { return slices.Contains(got, w) }, tc.has, tc.not)
		})
	}
}

// TestZshAndFishCompletion: the zsh and fish scripts are generated, give
// each command the flags its help lists (mirror's --delete and not
// --form-json, ls without --smtp-server), and, where that shell is
// installed here, parse in it (zsh -n, fish -n; neither is installed
// for this test).
func TestZshAndFishCompletion(t *testing.T) {
	for _, tc := range []struct {
		shell string
		head  string
		// arm finds the part of the script about one command.
		arm      func(script, cmd string) string
		has, not map[string][]string // by command
	}{
		{shell: "zsh", head: "#compdef urlget\n", arm: zshArm,
			has: map[string][]string{"": {"--segments=[", "'*-o[", "_files"}, "mirror": {"--delete[", "'2:directory:_files -/'"}, "ls": {"-l[", "--json["}},
			not: map[string][]string{"mirror": {"--form-json", "--login"}, "ls": {"--smtp-server", "--output"}}},
		{shell: "fish", head: "# fish completion for urlget", arm: fishArm,
			has: map[string][]string{"": {"-l segments -x", "-s 'o' -l output -r -F"}, "mirror": {"-l delete -d"}, "ls": {"-s 'l' -l long"}},
			not: map[string][]string{"mirror": {"-l form-json", "-l login"}, "ls": {"-l smtp-server", "-l output "}}},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			script, stderr, code := urlget(t, "", "completion", tc.shell)
			if code != 0 || !strings.HasPrefix(script, tc.head) {
				t.Fatalf("exit %d, %s\n%.300s", code, stderr, script)
			}
			for _, cmd := range []string{"", "ls", "mirror"} {
				arm := tc.arm(script, cmd)
				hasAndNot(t, arm, func(w string) bool { return strings.Contains(arm, w) }, tc.has[cmd], tc.not[cmd])
			}
			if _, err := exec.LookPath(tc.shell); err != nil {
				t.Logf("%s is not installed: the script is not parsed", tc.shell)
				return
			}
			f := filepath.Join(t.TempDir(), "urlget."+tc.shell)
			os.WriteFile(f, []byte(script), 0o644)
			if out, err := exec.Command(tc.shell, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", tc.shell, err, out)
			}
		})
	}
}

// zshArm is the case arm of the zsh script for cmd ("" for a retrieval).
func zshArm(script, cmd string) string {
	start := strings.Index(script, "    ("+shellQuote(cmd)+")\n")
	if start < 0 {
		return ""
	}
	end := strings.Index(script[start:], "        ;;\n")
	return script[start : start+end]
}

// fishArm are the lines of the fish script for cmd.
func fishArm(script, cmd string) string {
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		if strings.Contains(l, fishQuote("__urlget_is "+fishQuote(cmd))) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
