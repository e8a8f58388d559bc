package household

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/tasks/alfworld"
)

// A directory written by ExportGames reads back as the grid: the same
// cells in the same order, each with its type's evaluation games; one
// that breaks the layout is refused by the name of what breaks it.
func TestGameDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := ExportGames(dir, "v0.3"); err != nil {
		t.Fatal(err)
	}
	tr := New()
	tr.DataDir = dir
	if err := tr.Prepare(os.Stderr); err != nil {
		t.Fatal(err)
	}
	want, _ := HouseholdCells(nil, nil)
	got, err := tr.Cells(nil, nil)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("cells %v (%v), want %v", got, err, want)
	}
	for _, c := range got {
		if n, _ := tr.CellEpisodes(c); n != EvalCount(c.Family) {
			t.Errorf("%v: %d games, want %d", c, n, EvalCount(c.Family))
		}
	}

	cell := filepath.Join(dir, "none", "pick_and_place")
	if err := os.Rename(filepath.Join(cell, "03.json"), filepath.Join(dir, "none", "pick_cool_then_place", "99.json")); err != nil {
		t.Fatal(err)
	}
	_, err = loadGames(dir, "v0.3")
	if err == nil || !strings.Contains(err.Error(), cell+": no file for episode 3 (want 03.json)") {
		t.Errorf("a gap: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "none", "pick_cool_then_place", "99.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cell, "03.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = loadGames(dir, "v0.3")
	if err == nil || !strings.Contains(err.Error(), "99.json: type: want pick_cool_then_place, its directory's, got pick_and_place") {
		t.Errorf("a game of another type: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "courtesy"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = loadGames(dir, "v0.3")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "courtesy")+": want a directory named for a household perturbation") {
		t.Errorf("an unknown perturbation: %v", err)
	}
}

// A game whose label contradicts the perturbation of its directory was
// played and scored as that directory's cell (issue 33: a clear game
// under absence counted an absence no one could ask about); it is
// refused, naming the file and the field. Each row moves one exported
// game's label, or leaves it.
func TestGameLabelMatchesItsDirectory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, perturbation, from, to string
		want                        string // "" loads
	}{
		{"the label as exported loads", "absence", "", "", ""},
		{"a clear game's label under absence", "absence", `"label": "absence"`, `"label": "none"`,
			`label: want absence, as the perturbation of its directory (absence) labels its games, got none`},
		{"an ambiguity under none", "none", `"label": "none"`, `"label": "multiplicity"`,
			`label: want none, as the perturbation of its directory (none) labels its games, got multiplicity`},
		{"another ambiguity's label", "underspecified", `"label": "underspecified"`, `"label": "absence"`,
			`label: want underspecified, as the perturbation of its directory (underspecified) labels its games, got absence`},
	} {
		dir := t.TempDir()
		cell := filepath.Join(dir, tc.perturbation, "pick_and_place")
		if err := os.MkdirAll(cell, 0o755); err != nil {
			t.Fatal(err)
		}
		g, err := HouseholdGame("pick_and_place", tc.perturbation, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, err := alfworld.MarshalGame(g, "v0.3")
		if err != nil {
			t.Fatal(err)
		}
		if tc.from != "" {
			if !strings.Contains(string(b), tc.from) {
				t.Fatalf("%s: %q is not in the game file", tc.why, tc.from)
			}
			b = []byte(strings.Replace(string(b), tc.from, tc.to, 1))
		}
		path := filepath.Join(cell, GameFileName(0))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = loadGames(dir, "v0.3")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.why, err)
		case tc.want != "" && (err == nil || err.Error() != path+": "+tc.want):
			t.Errorf("%s:\n got %v\nwant %s: %s", tc.why, err, path, tc.want)
		}
	}
}
