//go:build long

package cli

import (
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestExtensionRecipes follows the README's four recipes as they are
// written: their code, taken from the README (the track's from the
// examples/track files the recipe points to), goes where the recipe puts
// it in this module, and the recipe's line goes into
// cmd/ambibench/cli/extensions.go, through an overlay (go build
// -overlay), so the work tree is not touched. Then it builds the new
// packages and runs the tests the recipes touch: the command's list,
// golden and help tests with every extension linked, a check that each
// is listed and plays (recipeCheck), the registry's property tests with
// the perturbation linked into them as the recipe says, and go vet of the
// agent beside the tabletop's workflows, the recipe's other place for it.
// The stored baselines, which the recipes say change, are TestBaselines'
// (TestBaselineDiffPairsByKey holds how it names new records). In the
// long tier: it builds the command's tests again, about 30 s.
func TestExtensionRecipes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the overlay's paths are written for a Unix tree")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	const module = "github.com/ambibench/ambibench/"
	tmp := t.TempDir()
	overlay := map[string]string{}
	put := func(rel, content string) {
		t.Helper()
		src := filepath.Join(tmp, strings.ReplaceAll(rel, "/", "_"))
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(root, rel)] = src
	}
	dirOf := func(path string) string {
		t.Helper()
		rel, ok := strings.CutPrefix(path, module)
		if !ok {
			t.Fatalf("%s is not a package of this module", path)
		}
		if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
			t.Fatalf("%s exists already: the recipe's package must be new", rel)
		}
		return rel
	}
	gofmted := func(what, code string) {
		t.Helper()
		if out, err := format.Source([]byte(code)); err != nil || string(out) != code {
			t.Errorf("%s: the README's code is not gofmt's (%v)", what, err)
		}
	}
	var links, pkgs []string

	// A perturbation: its file, its link, and the property tests' link.
	sec := recipeSection(t, readme, "Adding a perturbation")
	code := fenced(sec, "go")
	line, path := linkLine(t, sec)
	gofmted("courteous.go", code[0])
	put(dirOf(path)+"/courteous.go", code[0])
	links, pkgs = append(links, line), append(pkgs, "./"+dirOf(path))
	if !strings.Contains(sec, "`perturb/extensions_test.go`") || !strings.Contains(sec, "`package perturb_test`") {
		t.Error("the perturbation recipe no longer says how the property tests see a perturbation")
	}
	put("perturb/extensions_test.go", "package perturb_test\n\n"+line+"\n")

	// A task family.
	sec = recipeSection(t, readme, "Adding a task family")
	code = fenced(sec, "go")
	line, path = linkLine(t, sec)
	gofmted("stack.go", code[0])
	put(dirOf(path)+"/stack.go", code[0])
	links, pkgs = append(links, line), append(pkgs, "./"+dirOf(path))

	// An agent, in a package of its own, and beside the tabletop's
	// workflows (another overlay, vetted alone).
	sec = recipeSection(t, readme, "Adding an agent")
	code = fenced(sec, "go")
	tmpl := fenced(sec, "text")
	line, path = linkLine(t, sec)
	gofmted("oneshot.go", code[0])
	put(dirOf(path)+"/oneshot.go", code[0])
	put(dirOf(path)+"/prompts/oneshot.tmpl", tmpl[0])
	links, pkgs = append(links, line), append(pkgs, "./"+dirOf(path))
	beside := map[string]string{}
	for _, f := range []struct{ rel, content string }{
		{"agents/tabletop/oneshot.go", strings.Replace(code[0], "package oneshot\n", "package tabletop\n", 1)},
		{"agents/tabletop/prompts/oneshot.tmpl", tmpl[0]},
	} {
		if _, err := os.Stat(filepath.Join(root, f.rel)); err == nil {
			t.Fatalf("%s exists already", f.rel)
		}
		src := filepath.Join(tmp, "beside_"+filepath.Base(f.rel))
		if err := os.WriteFile(src, []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
		beside[filepath.Join(root, f.rel)] = src
	}
	if !strings.Contains(sec, "`package tabletop`") {
		t.Error("the agent recipe no longer says how the file goes beside the tabletop's workflows")
	}

	// A track: the example's files, where the recipe puts them.
	sec = recipeSection(t, readme, "Adding a track")
	line, path = linkLine(t, sec)
	for _, f := range []string{"jars.go", "counter.go"} {
		if !strings.Contains(sec, f) {
			t.Errorf("the track recipe does not name %s", f)
		}
		b, err := os.ReadFile(filepath.Join(root, "examples/track", f))
		if err != nil {
			t.Fatal(err)
		}
		put(dirOf(path)+"/"+f, string(b))
	}
	links, pkgs = append(links, line), append(pkgs, "./"+dirOf(path))

	// The lines, added to extensions.go as the recipes say.
	ext, err := os.ReadFile(filepath.Join(root, "cmd/ambibench/cli/extensions.go"))
	if err != nil {
		t.Fatal(err)
	}
	put("cmd/ambibench/cli/extensions.go", string(ext)+"\n"+strings.Join(links, "\n")+"\n")
	put("cmd/ambibench/cli/recipes_check_test.go", recipeCheck)

	writeOverlay := func(name string, m map[string]string) string {
		t.Helper()
		b, err := json.Marshal(map[string]map[string]string{"Replace": m})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(tmp, name)
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	goCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	ov := "-overlay=" + writeOverlay("overlay.json", overlay)
	// Built, not vetted: vet runs in each package's directory, which an
	// overlay does not make, and so cannot reach a package that imports
	// a new one either. The agent's code is vetted beside the tabletop's
	// workflows below.
	goCmd(append([]string{"build", ov}, pkgs...)...)
	goCmd("test", ov, "-count=1", "-vet=off", "-ldflags=-w",
		"-run", "^(TestRecipeExtensionsPlay|TestListGolden|TestListShowsTheRegistries|TestGoldenOutputs|TestEveryHelpAndFlagError|TestRunHelpListsTheTracks|TestLabelsAndAnswers|TestHouseholdLabelsAndAnswers|TestTracks|TestHouseholdBuiltinsAgreeWithTheRegistry)$",
		"./cmd/ambibench/cli", "./perturb")
	goCmd("vet", "-overlay="+writeOverlay("beside.json", beside), "./agents/tabletop")
}
