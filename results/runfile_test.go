package results

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRunFileRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := RunFile{Settings: map[string]string{"seed": "1", "suite": "1"}, Grid: Grid{Agents: []string{"a"}, Episodes: 3}}
	if err := WriteRunFile(dir, f); err != nil {
		t.Fatal(err)
	}
	got, ok, err := ReadRunFile(dir)
	if err != nil || !ok || len(got.Changes(f.Settings)) != 0 || got.Grid.Episodes != 3 {
		t.Fatalf("read back %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := ReadRunFile(t.TempDir()); ok || err != nil {
		t.Errorf("a directory without run.json: ok %v, err %v", ok, err)
	}
}

func TestRunFileChanges(t *testing.T) {
	t.Parallel()
	f := RunFile{Settings: map[string]string{"seed": "1", "step_limit": "40", "feedback": ""}}
	for _, tc := range []struct {
		why  string
		now  map[string]string
		want string
	}{
		{"equal settings are no change", map[string]string{"seed": "1", "step_limit": "40", "feedback": ""}, ""},
		{"a changed value names both values", map[string]string{"seed": "2", "step_limit": "40", "feedback": ""}, "seed: 1 in the directory, 2 now"},
		{"a setting the directory lacks is a change", map[string]string{"seed": "1", "step_limit": "40", "feedback": "", "trials": "5"}, "trials: (unset) in the directory, 5 now"},
		{"a setting dropped now is a change", map[string]string{"seed": "1", "feedback": ""}, "step_limit: 40 in the directory, (unset) now"},
	} {
		var got []string
		for _, c := range f.Changes(tc.now) {
			got = append(got, c.String())
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.why, got, tc.want)
		}
	}
}

func TestGridUnion(t *testing.T) {
	t.Parallel()
	g := Grid{Agents: []string{"b", "a"}, SceneSizes: []int{24}, Episodes: 5}.Union(Grid{Agents: []string{"a", "c"}, SceneSizes: []int{6, 24}, Episodes: 3})
	if strings.Join(g.Agents, ",") != "a,b,c" || len(g.SceneSizes) != 2 || g.SceneSizes[0] != 6 || g.Episodes != 5 {
		t.Errorf("union %+v", g)
	}
}

// A run.json that is broken is an error naming the file, never a panic
// and never a run file that says nothing; one that reads survives a
// round trip.
func FuzzReadRunFile(f *testing.F) {
	f.Add([]byte(`{"settings":{"seed":"1"},"grid":{"agents":["a"],"episodes":1}}`))
	f.Add([]byte(`{"settings":null}`))
	f.Add([]byte(`{"settings":{"seed":1}}`))
	f.Add([]byte(`{"settings":{},"grid":{"scene_sizes":[-1]},"extra":1}`))
	f.Add([]byte(`{"settings":{}} {}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := ParseRunFile(data, "out/run.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "out/run.json: ") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if rf.Settings == nil {
			t.Fatal("read without error but without settings")
		}
		if len(rf.Changes(rf.Settings)) != 0 {
			t.Error("a run file differs from itself")
		}
		enc, err := json.Marshal(rf)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseRunFile(enc, "again")
		if err != nil || len(again.Changes(rf.Settings)) != 0 {
			t.Errorf("round trip: %v", err)
		}
	})
}
