package results

import (
	"encoding/json"
	"regexp"
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
	f.Add([]byte(``))
	f.Add([]byte(`{"settings":{},"grid":null}`))
	f.Add([]byte(`{"settings":{},"grid":{"agents":["a"],"episodes":-5}}`))
	f.Add([]byte(`{"settings":{},"grid":{"agents":["a"],"episodes":1},"shard":{"index":0,"count":0,"order":{"agents":["a"],"cells":[]}}}`))
	f.Add([]byte("{\n \"settings\": {},\n \"grid\": {\"episodes\": \"x\"}\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := ParseRunFile(data, "out/run.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "out/run.json: ") && !regexp.MustCompile(`^out/run\.json:[0-9]+: `).MatchString(err.Error()) {
				t.Errorf("error %q does not name the file (and the line)", err)
			}
			if err.Error() == "out/run.json: EOF" {
				t.Errorf("error %q says no more than EOF", err)
			}
			return
		}
		if err := rf.Check(); err != nil {
			t.Fatalf("read without error a run file that Check refuses: %v", err)
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

// A run.json whose values are out of range is refused, naming the file
// and the field (or the line of a JSON error): before, each was read as
// a run with no grid, or as shard 0 of 0, in silence, and an empty file
// said only EOF.
func TestParseRunFileRefuses(t *testing.T) {
	t.Parallel()
	const settings = `"settings":{"seed":"1"}`
	const grid = `"grid":{"agents":["a"],"episodes":2}`
	order := `"order":{"agents":["a"],"cells":[{"family":"f","perturbation":"p","episodes":2}]}`
	for _, tc := range []struct {
		why, data, want string
	}{
		{"an empty file is said to be empty, not EOF", ``, `out/run.json: empty file`},
		{"white space is empty too", " \n\t", `out/run.json: empty file`},
		{"a file cut short says so, with its line", "{\n" + settings + ",\n", `out/run.json:2: the JSON ends too soon`},
		{"a JSON error names its line", "{\n" + settings + ",\n" + `"grid":{"agents":["a"],"episodes":"two"}}`, `out/run.json:3: field "grid.episodes": expected int, got string`},
		{"an array is not a run file", `[]`, `out/run.json:1: expected a JSON object with "settings" and "grid", got array`},
		{"the settings are required", `{` + grid + `}`, `out/run.json: field "settings": missing or null`},
		{"a null grid is no grid", `{` + settings + `,"grid":null}`, `out/run.json: field "grid": missing or null`},
		{"a missing grid is no grid", `{` + settings + `}`, `out/run.json: field "grid": missing or null`},
		{"a negative episode count", `{` + settings + `,"grid":{"agents":["a"],"episodes":-5}}`, `out/run.json: field "grid.episodes": -5 is negative`},
		{"a negative repeat count", `{` + settings + `,"grid":{"agents":["a"],"episodes":1,"repeats":-1}}`, `out/run.json: field "grid.repeats": -1 is negative`},
		{"an agent without a name", `{` + settings + `,"grid":{"agents":["a",""],"episodes":1}}`, `out/run.json: field "grid.agents[1]": empty`},
		{"a scene size of no object", `{` + settings + `,"grid":{"agents":["a"],"scene_sizes":[6,0],"episodes":1}}`, `out/run.json: field "grid.scene_sizes[1]": 0: want a number of objects from 1`},
		{"shard 0 of 0", `{` + settings + `,` + grid + `,"shard":{"index":0,"count":0,` + order + `}}`, `out/run.json: field "shard.count": 0: want the number of shards, at least 1`},
		{"shard 0 of 2", `{` + settings + `,` + grid + `,"shard":{"index":0,"count":2,` + order + `}}`, `out/run.json: field "shard.index": 0: want a shard from 1 to shard.count (2)`},
		{"shard 3 of 2", `{` + settings + `,` + grid + `,"shard":{"index":3,"count":2,` + order + `}}`, `out/run.json: field "shard.index": 3`},
		{"a cell of the order with negative episodes", `{` + settings + `,` + grid + `,"shard":{"index":1,"count":2,"order":{"agents":["a"],"cells":[{"family":"f","perturbation":"p","episodes":-1}]}}}`, `out/run.json: field "shard.order.cells[0].episodes": -1 is negative`},
	} {
		_, err := ParseRunFile([]byte(tc.data), "out/run.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.why, err, tc.want)
		}
	}
	good := `{` + settings + `,` + grid + `,"shard":{"index":2,"count":2,` + order + `}}`
	if _, err := ParseRunFile([]byte(good), "out/run.json"); err != nil {
		t.Errorf("a good run file: %v", err)
	}
}

// A record that does not belong to the run its run.json describes is
// refused, naming its field and what run.json holds.
func TestCheckRecord(t *testing.T) {
	t.Parallel()
	rf := RunFile{
		Settings: map[string]string{"track": "tabletop", "seed": "1", "suite": "1", "schema": "2", "step_limit": "40"},
		Grid:     Grid{Agents: []string{"oracle", "rules"}, Families: []string{"pick_place"}, Perturbations: []string{"absence", "none"}, SceneSizes: []int{12}, Episodes: 3, Repeats: 2},
	}
	good := Record{Schema: SchemaVersion, Suite: 1, Outcome: OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "rules", Seed: 1, Episode: 2, SceneSize: 12, Repeat: 1}
	if err := rf.CheckRecord(good); err != nil {
		t.Fatalf("a record of the run: %v", err)
	}
	if err := (RunFile{Settings: map[string]string{}}).CheckRecord(Record{Track: "x", Episode: 0}); err == nil || !strings.Contains(err.Error(), "has no episodes") {
		t.Errorf("a record of a run file with an empty grid: %v, want a refusal", err)
	}
	for _, tc := range []struct {
		why    string
		change func(*Record)
		want   string
	}{
		{"another track", func(r *Record) { r.Track = "tabletopx" }, `field "track": "tabletopx", but the run's run.json says track "tabletop"`},
		{"another seed", func(r *Record) { r.Seed = 2 }, `field "seed": 2, but the run's run.json says seed 1`},
		{"another suite", func(r *Record) { r.Suite = 2 }, `field "suite": 2, but the run's run.json says suite 1`},
		{"an agent outside the grid", func(r *Record) { r.Agent = "random" }, `field "agent": "random" is not among the grid's agents in the run's run.json (oracle, rules)`},
		{"a family outside the grid", func(r *Record) { r.Family = "pick_plce" }, `field "family": "pick_plce" is not among the grid's families in the run's run.json (pick_place)`},
		{"a perturbation outside the grid", func(r *Record) { r.Perturbation = "nonee" }, `field "perturbation": "nonee" is not among the grid's perturbations in the run's run.json (absence, none)`},
		{"a scene size outside the grid", func(r *Record) { r.SceneSize = 24 }, `field "scene_size": 24 is not among the grid's scene sizes in the run's run.json (12)`},
		{"an episode past the grid", func(r *Record) { r.Episode = 3 }, `field "episode": 3, but the run's run.json has 3 episodes per cell (0 to 2)`},
		{"a repeat past the grid", func(r *Record) { r.Repeat = 2 }, `field "repeat": 2, but the run's run.json plays each episode 2 times`},
	} {
		r := good
		tc.change(&r)
		if err := rf.CheckRecord(r); err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.why, err, tc.want)
		}
	}
}

// Locate places every job of an order where walking the order (cells,
// agents, episodes, repeats, innermost last) puts it, and nothing else.
func TestJobOrderLocate(t *testing.T) {
	t.Parallel()
	o := JobOrder{
		Agents: []string{"sgcot", "oracle"},
		Cells: []OrderCell{
			{Family: "pick_place", Perturbation: "none", Episodes: 3},
			{Family: "pick_place", Perturbation: "absence", Episodes: 1},
			{Family: "stack", Perturbation: "none", SceneSize: 12, Episodes: 2},
		},
		Repeats: 2,
	}
	locate := o.Locate()
	k := 0
	for _, c := range o.Cells {
		for _, a := range o.Agents {
			for e := range c.Episodes {
				for rep := range 2 {
					r := Record{Family: c.Family, Perturbation: c.Perturbation, SceneSize: c.SceneSize, Agent: a, Episode: e, Repeat: rep}
					if got, ok := locate(r); !ok || got != k {
						t.Errorf("%s: at %d, %v; want %d", r.Key(), got, ok, k)
					}
					k++
				}
			}
		}
	}
	if k != o.Len() {
		t.Fatalf("walked %d jobs, Len says %d", k, o.Len())
	}
	for _, r := range []Record{
		{Family: "pick_place", Perturbation: "none", Agent: "sgcot", Episode: 3},            // past the cell's episodes
		{Family: "pick_place", Perturbation: "none", Agent: "sgcot", Episode: 0, Repeat: 2}, // past the repeats
		{Family: "pick_place", Perturbation: "none", Agent: "rules", Episode: 0},            // an agent not in the order
		{Family: "stack", Perturbation: "none", Agent: "sgcot", Episode: 0},                 // the cell is at size 12
		{Family: "pick_place", Perturbation: "none", Agent: "sgcot", Episode: -1},           // no episode -1
	} {
		if got, ok := locate(r); ok {
			t.Errorf("%s: placed at %d, want not in the order", r.Key(), got)
		}
	}
}
