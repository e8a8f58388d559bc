package prompt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// The registered set the tests of Load and Export read.
var overrideSet = Register("ztest", fstest.MapFS{
	"prompts/greet.tmpl": {Data: []byte("Hello, {{.Name}}.\n{{range .Items}}[{{.}}]{{end}}\n")},
	"prompts/parts.tmpl": {Data: []byte(`{{define "sign"}}-- {{.Name}}{{end}}`)},
	"prompts/bye.tmpl":   {Data: []byte(`Bye. {{template "sign" .}}`)},
}, "prompts/*.tmpl", map[string]any{
	"greet.tmpl": helloData{},
	"bye.tmpl":   helloData{},
})

// export writes the registered sets to a fresh directory.
func export(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "prompts")
	if _, err := Export(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExport writes every file of every set, the built-in text, and
// refuses a directory that holds anything.
func TestExport(t *testing.T) {
	t.Parallel()
	dir := export(t)
	for _, s := range Sets() {
		for _, f := range s.Files() {
			b, err := os.ReadFile(filepath.Join(dir, s.Name(), f.Name))
			if err != nil || string(b) != f.Text {
				t.Errorf("%s/%s: %v, or not the built-in text", s.Name(), f.Name, err)
			}
		}
	}
	if _, err := Export(dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("export into a directory already written: %v, want a refusal", err)
	}
	o, err := Load(dir)
	if err != nil || len(o.Replaced()) != 0 || len(o.Settings()) != 0 {
		t.Errorf("an export read back as it was: %v, replaced %v; want nothing replaced", err, o.Replaced())
	}
}

// TestLoadReplaces: a changed file replaces the built-in one in the run
// whose context carries the overrides, and only there; its hash is its
// setting.
func TestLoadReplaces(t *testing.T) {
	t.Parallel()
	dir := export(t)
	text := "Hi {{.Name}}! {{len .Items}} items.\n"
	write(t, filepath.Join(dir, "ztest", "greet.tmpl"), text)
	// Any subset: another set's directory and a file of this one go.
	if err := os.Remove(filepath.Join(dir, "ztest", "bye.tmpl")); err != nil {
		t.Fatal(err)
	}
	o, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	want := map[string]string{"prompt:ztest/greet.tmpl": hex.EncodeToString(sum[:])}
	if got := o.Settings("ztest"); len(got) != 1 || got["prompt:ztest/greet.tmpl"] != want["prompt:ztest/greet.tmpl"] {
		t.Errorf("settings %v, want %v", got, want)
	}
	if got := o.Settings("tabletop"); len(got) != 0 {
		t.Errorf("settings of another set %v, want none", got)
	}
	data := helloData{"robot", []int{1, 2}}
	ctx := WithOverrides(context.Background(), o)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				replaced, err := overrideSet.In(ctx).Render("greet.tmpl", data)
				if err != nil || replaced != "Hi robot! 2 items.\n" {
					t.Errorf("with the overrides: %q, %v", replaced, err)
					return
				}
				builtin, err := overrideSet.In(context.Background()).Render("greet.tmpl", data)
				if err != nil || builtin != "Hello, robot.\n[1][2]\n" {
					t.Errorf("without them: %q, %v", builtin, err)
					return
				}
				// A template left alone renders as built.
				if bye, err := overrideSet.In(ctx).Render("bye.tmpl", data); err != nil || bye != "Bye. -- robot" {
					t.Errorf("a template not replaced: %q, %v", bye, err)
					return
				}
			}
		})
	}
	wg.Wait()

	// A file replaced without a define it had keeps the built-in one,
	// which other files call.
	dir = export(t)
	write(t, filepath.Join(dir, "ztest", "parts.tmpl"), "nothing")
	o, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if bye, err := overrideSet.In(WithOverrides(context.Background(), o)).Render("bye.tmpl", data); err != nil || bye != "Bye. -- robot" {
		t.Errorf("a define the replaced file no longer has: %q, %v; want it as built", bye, err)
	}
}

// TestLoadRefuses: what Load refuses names the file, and the line for a
// template.
func TestLoadRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, file, text string
		err             string // a regexp, with DIR for the directory
	}{
		{"a set that does not exist", "kitchen/greet.tmpl", "x", `^DIR/kitchen: no workflow's prompts are called kitchen`},
		{"a file at the top", "greet.tmpl", "x", `^DIR/greet\.tmpl: no workflow's prompts are called greet\.tmpl`},
		{"a template that does not exist, with the near one", "ztest/gret.tmpl", "x", `^DIR/ztest/gret\.tmpl: the ztest workflows have no template gret\.tmpl; did you mean greet\.tmpl\?`},
		{"a template that does not exist", "ztest/other.txt", "x", `^DIR/ztest/other\.txt: the ztest workflows have no template other\.txt \(`},
		{"a directory in a set", "ztest/sub/greet.tmpl", "x", `^DIR/ztest/sub: the ztest workflows have no template sub`},
		{"a parse error, at its line", "ztest/greet.tmpl", "Hello\n{{.Name\n", `^DIR/ztest/greet\.tmpl:3: unclosed action started at line 2$`},
		{"a field the data does not have, at its line", "ztest/greet.tmpl", "Hello\n\n{{.Nmae}}", `^DIR/ztest/greet\.tmpl:3: \{\{\.Nmae\}\}: prompt\.helloData has no field Nmae; it has Name, Items$`},
		{"a define replaced with a field the callers' data does not have", "ztest/parts.tmpl", `{{define "sign"}}{{.Signature}}{{end}}`, `^DIR/ztest/parts\.tmpl:1: \{\{\.Signature\}\}: prompt\.helloData has no field Signature`},
		{"a template that calls one that does not exist", "ztest/bye.tmpl", "Bye.\n{{template \"signature\" .}}", `^DIR/ztest/bye\.tmpl:2: \{\{template "signature" \.\}\}: no template "signature" in the ztest prompts$`},
	} {
		dir := filepath.Join(t.TempDir(), "prompts")
		write(t, filepath.Join(dir, tc.file), tc.text)
		o, err := Load(dir)
		want := strings.ReplaceAll(tc.err, "DIR", regexp.QuoteMeta(dir))
		if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("%s: %v, %v; want an error matching %s", tc.why, o, err, want)
		}
	}
	// Every file that does not parse is named, not only the first.
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, filepath.Join(dir, "ztest", "greet.tmpl"), "{{.Name")
	write(t, filepath.Join(dir, "ztest", "bye.tmpl"), "{{end}}")
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "greet.tmpl:1") || !strings.Contains(err.Error(), "bye.tmpl:1") {
		t.Errorf("two files that do not parse: %v, want both named", err)
	}
	// A define a replaced file no longer has is kept as built, and named
	// as built where it fails.
	dir = filepath.Join(t.TempDir(), "prompts")
	write(t, filepath.Join(dir, "ztest", "parts.tmpl"), "nothing")
	write(t, filepath.Join(dir, "ztest", "bye.tmpl"), `{{template "sign" .Items}}`)
	_, err = Load(dir)
	if want := "(built-in) ztest/parts.tmpl:1: {{.Name}}: []int has no field Name"; err == nil || err.Error() != want {
		t.Errorf("a kept define given other data: %v, want %s", err, want)
	}
	// Hidden files are passed over.
	dir = filepath.Join(t.TempDir(), "prompts")
	write(t, filepath.Join(dir, ".git", "HEAD"), "x")
	write(t, filepath.Join(dir, "ztest", ".greet.tmpl.swp"), "x")
	if _, err := Load(dir); err != nil {
		t.Errorf("hidden files: %v", err)
	}
}
