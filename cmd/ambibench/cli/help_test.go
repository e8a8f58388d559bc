package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryHelpAndFlagError asks every subcommand, and every one a
// subcommand's usage names (such as "semmap export"), for --help and gives
// it a flag it does not have: help goes to stdout and says how to use the
// command, the flag error names the flag, and neither prints a panic (the
// flag package calls String on a zero value of every flag's type, which
// once panicked for run's flags that several tracks share).
func TestEveryHelpAndFlagError(t *testing.T) {
	t.Parallel()
	var paths [][]string
	for _, c := range commands {
		paths = append(paths, []string{c.name})
		stdout, _, _ := runCLI(t, c.name, "--help")
		sub := regexp.MustCompile(`ambibench ` + regexp.QuoteMeta(c.name) + ` ([a-z][a-z-]+)`)
		seen := map[string]bool{}
		for _, m := range sub.FindAllStringSubmatch(stdout, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				paths = append(paths, []string{c.name, m[1]})
			}
		}
	}
	if len(paths) <= len(commands) {
		t.Fatalf("no subcommand's usage names a command of its own; the test reads them from the usages")
	}
	for _, p := range paths {
		name := strings.Join(p, " ")
		stdout, stderr, err := runCLI(t, append(p, "--help")...)
		if err != nil {
			t.Errorf("%s --help: %v", name, err)
		}
		if !strings.Contains(stdout, "Usage") {
			t.Errorf("%s --help: stdout holds no usage:\n%s", name, stdout)
		}
		if strings.Contains(stdout+stderr, "panic") {
			t.Errorf("%s --help prints a panic:\n%s%s", name, stdout, stderr)
		}
		stdout, stderr, err = runCLI(t, append(p, "--no-such-flag")...)
		if err == nil {
			t.Errorf("%s --no-such-flag: no error", name)
		}
		if out := stdout + stderr; strings.Contains(out, "panic") || !strings.Contains(out+errText(err), "no-such-flag") {
			t.Errorf("%s --no-such-flag: want the flag named and no panic, got %v:\n%s", name, err, out)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
