package household

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Every prompt template, rendered with fixed data, matches its golden file
// under testdata/ (rewrite with -update). A prompt change shows in review
// as a diff of the text a model reads.
func TestPromptsGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, template string
		data             any
	}{
		{"react_system.txt", "react_system.tmpl", reactGolden(false, false)},
		{"react_user_first.txt", "react_user.tmpl", reactGolden(false, false)},
		{"react_user.txt", "react_user.tmpl", reactGolden(true, false)},
		{"react_user_retry.txt", "react_user.tmpl", reactGolden(true, true)},
		{"reflexion_reflect.txt", "reflexion_reflect.tmpl", reflectGolden()},
	} {
		got, err := render(tc.template, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		path := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s rendered differently from %s:\n%s", tc.template, path, got)
		}
		if strings.Contains(got, "<no value>") {
			t.Errorf("%s: a template field is missing", tc.template)
		}
	}
}

// The golden prompts are what a real model reads, byte for byte; none of
// them may carry a machine-readable copy of the context (the fenced
// "```ambibench" block the prompts once ended in) or mention one.
func TestGoldenPromptsHoldNoBlock(t *testing.T) {
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
