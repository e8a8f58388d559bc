package household

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
