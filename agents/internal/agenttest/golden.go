package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GoldenPrompt compares a rendered prompt template with its golden file
// testdata/golden, or rewrites the file when update is set. A prompt
// change shows in review as a diff of the text a model reads.
func GoldenPrompt(t *testing.T, template, golden, got string, update bool) {
	t.Helper()
	path := filepath.Join("testdata", golden)
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s rendered differently from %s:\n%s", template, path, got)
	}
	if strings.Contains(got, "<no value>") {
		t.Errorf("%s: a template field is missing", template)
	}
}

// PromptsHoldNoBlock checks that no golden prompt under testdata/ carries
// a machine-readable copy of the call's context (the fenced
// "```ambibench" block the prompts once ended in) or mentions one: the
// golden prompts are what a real model reads, byte for byte.
func PromptsHoldNoBlock(t *testing.T) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden prompts: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"```ambibench", "ambibench block", `{"v":1,`} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s holds %q", f, bad)
			}
		}
	}
}
