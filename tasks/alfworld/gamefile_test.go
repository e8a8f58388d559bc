package alfworld_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// Every game of the evaluation split, under every registered household
// perturbation that applies to its type (the run grid's cells), is
// written and read back to the same value, in both grammars; written
// again, it is the same bytes.
func TestGameFileRoundTrip(t *testing.T) {
	t.Parallel()
	n := 0
	for _, p := range perturb.ForHousehold() {
		for _, s := range alfworld.EvalGames() {
			if !p.AppliesToGame(s.Type) {
				continue
			}
			g, err := s.BuildWith(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
				b, err := alfworld.MarshalGame(g, grammar)
				if err != nil {
					t.Fatalf("%s/%s: %v", s.ID, p.Name(), err)
				}
				back, gr, err := alfworld.UnmarshalGame(b, s.ID+".json")
				if err != nil {
					t.Fatalf("%s/%s: %v\n%s", s.ID, p.Name(), err, b)
				}
				if gr != grammar {
					t.Errorf("%s/%s: grammar %q read back as %q", s.ID, p.Name(), grammar, gr)
				}
				if !reflect.DeepEqual(g, back) {
					t.Fatalf("%s/%s: read back differs:\n%+v\n%+v\n%+v\n%+v", s.ID, p.Name(), g, back, g.House, back.House)
				}
				again, err := alfworld.MarshalGame(back, grammar)
				if err != nil || !bytes.Equal(again, b) {
					t.Fatalf("%s/%s: written again differs (%v)", s.ID, p.Name(), err)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no game written")
	}
}

// A hand-made house with everything a file can say: a held object, the
// agent at a receptacle, two receptacles at one place, an open one, a
// lamp switched on.
func TestGameFileHandMade(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "game_look.json"))
	if err != nil {
		t.Fatal(err)
	}
	g, grammar, err := alfworld.UnmarshalGame(b, "game_look.json")
	if err != nil {
		t.Fatal(err)
	}
	h := g.House
	if grammar != textworld.GrammarV04 || g.Named() != "book" || h.Held == scenes.Nowhere || h.Items[h.Held].Name != "book 1" ||
		h.Receptacles[h.At].Name != "desk 1" || !h.SamePlace(0, 1) || !h.Receptacles[0].Open {
		t.Errorf("read %+v, grammar %s, house %+v", g, grammar, h)
	}
	if ok, why := g.Goal.Holds(h); !ok {
		t.Errorf("the goal does not hold in the file's state: %s", why)
	}
	if err := g.CheckStart("game_look.json"); err == nil || err.Error() != `game_look.json: agent: a game starts in the middle of the room with nothing in hand; want {"at":"","holding":""}` {
		t.Errorf("CheckStart: %v", err)
	}
	again, err := alfworld.MarshalGame(g, grammar)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, b) {
		t.Errorf("written again differs from the file:\n%s", again)
	}
}

// A malformed file names the file, the field and what was expected.
func TestGameFileErrors(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "game_look.json"))
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	for _, tc := range []struct {
		old, new string // the change to the good file
		want     string
	}{
		{`"loc":3,"openable":true,"open":true}`, `"loc":0,"openable":true,"open":true}`, "g.json: receptacles[0].loc: want a number from 1, got 0"},
		{`"loc":3,"openable":true,"open":true}`, `"loc":"3","openable":true,"open":true}`, "g.json: receptacles[0].loc: want a whole number, got a JSON string"},
		{`"loc":3,"openable":true,"open":true}`, `"loc":3.5,"openable":true,"open":true}`, "g.json: receptacles[0].loc: want a whole number, got a JSON number 3.5"},
		{`"loc":3,"openable":true,"open":true}`, `"openable":true,"open":true}`, "g.json: receptacles[0].loc: missing: want a whole number"},
		{`"loc":3,"openable":true,"open":true}`, `"loc":3,"openable":true,"open":true,"size":2}`, "g.json: receptacles[0].size: unknown field (want one of name, kind, room, loc, openable, open)"},
		{`"kind":"drawer","room"`, `"kind":"sink drawer","room"`, `g.json: receptacles[0].kind: want a receptacle kind, got "sink drawer"`},
		{`{"name":"drawer 1","kind":"drawer"`, `{"name":"drawer 0","kind":"drawer"`, `g.json: receptacles[1].name: want "drawer" and a number from 1, got "drawer 0"`},
		{`"name":"desk 1","kind":"desk","room":"bedroom"`, `"name":"desk 1","kind":"desk","room":"kitchen"`, `g.json: receptacles[2].room: want one of the rooms (bedroom), got "kitchen"`},
		{`{"name":"desk 1","kind":"desk","room":"bedroom","loc":1}`, `{"name":"desk 1","kind":"desk","room":"bedroom","loc":1,"openable":true}`, "g.json: receptacles[2].openable: a desk never opens; want false"},
		{`"in":"desk 1","on":true`, `"in":"desk 9","on":true`, `g.json: items[1].in: want the name of a receptacle, got "desk 9"`},
		{`{"name":"book 1","kind":"book",`, `{"name":"book 1","kind":"book","in":"desk 1",`, `g.json: items[0].in: the agent holds book 1 (agent.holding); want no "in", got "desk 1"`},
		{`{"name":"pen 1","kind":"pen","in":"drawer 1"}`, `{"name":"pen 1","kind":"pen"}`, "g.json: items[2].in: missing: want the name of the receptacle"},
		{`{"name":"pen 1","kind":"pen","in":"drawer 1"}`, `{"name":"pen 1","kind":"pen","in":"drawer 1","color":"mauve"}`, `g.json: items[2].color: want one of red, blue, green, yellow, white, black, got "mauve"`},
		{`"kind":"pen"`, `"kind":"pens"`, `g.json: items[2].kind: want an object kind, got "pens"`},
		{`"holding":"book 1"`, `"holding":"book 2"`, `g.json: items[0].in: missing`},
		{`"at":"desk 1"`, `"at":"desk 2"`, `g.json: agent.at: want the name of a receptacle, or "" for the middle of the room, got "desk 2"`},
		{`"version": 1`, `"version": 2`, "g.json: version: want 1, the version this ambibench reads, got 2"},
		{`"grammar": "v0.4"`, `"grammar": "0.4"`, `g.json: grammar: want v0.3 or v0.4, got "0.4"`},
		{`"type": "look_at_obj_in_light"`, `"type": "look"`, `g.json: type: want one of pick_and_place,`},
		{`"form": "definite"`, `"form": "plural"`, `g.json: form: want one of indefinite, definite, vague, got "plural"`},
		{`"seed": "12"`, `"seed": 12`, "g.json: seed: want a string, got a JSON number"},
		{`"seed": "12"`, `"seed": "-12"`, `g.json: seed: want a whole number from 0 to 2^64-1 in a string, as "123", got "-12"`},
		{`"label": "multiplicity"`, `"label": "vague"`, `g.json: label: want one of none, absence, multiplicity, underspecified, partial_observability, got "vague"`},
		{`"step_limit": 50`, `"step_limit": 0`, "g.json: step_limit: want a number from 1, got 0"},
		{`"rooms": ["bedroom"]`, `"rooms": ["attic"]`, `g.json: rooms[0]: want one of kitchen, livingroom, bedroom, bathroom, got "attic"`},
		{`"lamp": "desklamp"`, `"lamp": "floorlamp"`, "g.json: goal.lamp: the house has no floorlamp"},
		{`"lamp": "desklamp"`, `"lamp": "desklamp", "dest": "desk"`, `g.json: goal.dest: want none for look_at_obj_in_light, got "desk"`},
		{"\"kind\": \"book\",\n    \"item\": \"book 1\",", `"kind": "pencil",`, "g.json: goal: the house has 0 of pencil; want at least 1"},
		{`"count": 1`, `"count": 2`, "g.json: goal.count: want 1 for look_at_obj_in_light, got 2"},
		{`"count": 1`, `"count": "1"`, "g.json: goal.count: want a whole number, got a JSON string"},
		{`"item": "book 1"`, `"item": "pen 1"`, `g.json: goal.item: want a book (goal.kind), got "pen 1"`},
		{`"step_limit": 50`, `"step_limit": 50, "extra": true`, "g.json: extra: unknown field"},
		{"{", "[", "g.json: want a JSON object, got invalid JSON"},
	} {
		bad := strings.Replace(good, tc.old, tc.new, 1)
		if bad == good {
			t.Fatalf("%q is not in the file", tc.old)
		}
		_, _, err := alfworld.UnmarshalGame([]byte(bad), "g.json")
		var fe *alfworld.FileError
		if err == nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s → %s: error %v, want %s…", tc.old, tc.new, err, tc.want)
		}
	}
	if _, _, err := alfworld.UnmarshalGame([]byte("null"), "g.json"); err == nil || err.Error() != "g.json: want a JSON object, got null" {
		t.Errorf("null: %v", err)
	}
}

// ReadGameFile names the file it read.
func TestReadGameFileNamesTheFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "eval-put-01.json")
	if err := os.WriteFile(path, []byte(`{"version": 1, "grammar": "v0.3"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := alfworld.ReadGameFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": id: missing: want a string") {
		t.Errorf("error %v", err)
	}
}

// Reading a game file of the built-in split, as run --data reads 653 of
// them before the first episode.
func BenchmarkReadGame(b *testing.B) {
	g, err := alfworld.EvalGames()[0].BuildWith(nil)
	if err != nil {
		b.Fatal(err)
	}
	data, err := alfworld.MarshalGame(g, textworld.GrammarV03)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := alfworld.UnmarshalGame(data, "game.json"); err != nil {
			b.Fatal(err)
		}
	}
}
