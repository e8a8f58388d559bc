package alfworld_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// The reader never panics, and what it accepts is a game that writes
// and reads back to the same value and the same bytes. The seeds are
// real files: the hand-made one and the first evaluation game of each
// type under each perturbation.
func FuzzReadGame(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "game_look.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	seen := map[string]bool{}
	for _, s := range alfworld.EvalGames() {
		if seen[s.Type] {
			continue
		}
		seen[s.Type] = true
		for _, p := range perturb.ForHousehold() {
			if !p.AppliesToGame(s.Type) {
				continue
			}
			g, err := s.BuildWith(p)
			if err != nil {
				f.Fatal(err)
			}
			b, err := alfworld.MarshalGame(g, textworld.GrammarV03)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"version": 1, "grammar": "v0.3", "id": "x", "type": "pick_and_place"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, grammar, err := alfworld.UnmarshalGame(data, "fuzz.json")
		if err != nil {
			return
		}
		out, err := alfworld.MarshalGame(g, grammar)
		if err != nil {
			t.Fatalf("accepted, but does not write: %v", err)
		}
		back, grammar2, err := alfworld.UnmarshalGame(out, "fuzz.json")
		if err != nil {
			t.Fatalf("written, but does not read back: %v\n%s", err, out)
		}
		if grammar2 != grammar || !reflect.DeepEqual(g, back) {
			t.Fatalf("read back differs:\n%+v\n%+v", g, back)
		}
		again, err := alfworld.MarshalGame(back, grammar)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("written twice, two texts (%v):\n%s\n%s", err, out, again)
		}
	})
}
