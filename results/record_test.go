package results

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// validRecord returns a record that passes Validate; tests change one thing.
func validRecord() Record {
	return Record{Suite: 1, Outcome: OutcomeScored,
		Schema:       SchemaVersion,
		Track:        "tabletop",
		Family:       "pick_place",
		Perturbation: "absence",
		Label:        "absence",
		Agent:        "sgcot",
		Model:        "sim",
		Seed:         42,
		Episode:      7,
		Instruction:  "put the red block in the blue bowl",
		Asked:        true,
		Tag:          "absence",
		Questions:    1,
		TagCorrect:   1,
		ADA:          true,
		Steps:        4,
		ToolCalls:    map[string]int{"ask": 1, "retrieve_node": 3},
		WallMS:       1.5,
	}
}

func TestKey(t *testing.T) {
	t.Parallel()
	base := validRecord()
	want := `"tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/42/7`
	if got := base.Key(); got != want {
		t.Fatalf("Key() = %s, want %s", got, want)
	}
	sized := base
	sized.SceneSize = 24
	for r, want := range map[*Record]string{&base: "tabletop/pick_place/absence/sgcot/sim/42/7", &sized: "tabletop/pick_place/absence/sgcot/sim/42/7/n=24"} {
		if got := r.PlainKey(); got != want || strings.ReplaceAll(r.Key(), `"`, "") != want {
			t.Errorf("PlainKey() = %s, want %s, the key without its quotes", got, want)
		}
	}
	tests := []struct {
		name   string // why the row exists
		change func(*Record)
		same   bool // whether the key must stay the same
	}{
		{"outcome fields are not part of the key", func(r *Record) { r.Success = true; r.Steps = 99; r.Error = "x"; r.Label = "none" }, true},
		{"track is part of the key", func(r *Record) { r.Track = "household" }, false},
		{"family is part of the key", func(r *Record) { r.Family = "stack" }, false},
		{"perturbation is part of the key", func(r *Record) { r.Perturbation = "none" }, false},
		{"agent is part of the key", func(r *Record) { r.Agent = "rules" }, false},
		{"model is part of the key", func(r *Record) { r.Model = "sim:weak" }, false},
		{"seed is part of the key", func(r *Record) { r.Seed = 43 }, false},
		{"episode is part of the key", func(r *Record) { r.Episode = 8 }, false},
		{"a separator inside a name cannot shift fields", func(r *Record) { r.Agent = `sgcot"/"sim`; r.Model = "" }, false},
		{"moving text between adjacent fields changes the key", func(r *Record) { r.Agent = "sgcots"; r.Model = "im" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRecord()
			tt.change(&r)
			if got := r.Key() == base.Key(); got != tt.same {
				t.Errorf("key %s vs %s: same = %v, want %v", r.Key(), base.Key(), got, tt.same)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string // why the row exists
		change  func(*Record)
		wantErr string // substring of the error; "" means valid
	}{
		{"a complete record is valid", func(*Record) {}, ""},
		{"optional fields may be empty", func(r *Record) { r.Model, r.Label, r.Tag, r.Instruction, r.ToolCalls = "", "", "", "", nil }, ""},
		{"episode 0 is the first episode, not missing", func(r *Record) { r.Episode = 0 }, ""},
		{"zero schema means the field was missing", func(r *Record) { r.Schema = 0 }, `field "schema": got 0, want 2`},
		{"a future schema is refused, not misread", func(r *Record) { r.Schema = 3 }, `field "schema": got 3, want 2`},
		{"a record of schema 1, from before outcomes, is refused", func(r *Record) { r.Schema = 1 }, `field "schema": got 1, want 2`},
		{"the suite version is required", func(r *Record) { r.Suite = 0 }, `field "suite": missing`},
		{"the outcome is required", func(r *Record) { r.Outcome = "" }, `field "outcome": missing`},
		{"an outcome is one of three", func(r *Record) { r.Outcome = "skipped" }, `field "outcome": "skipped" is not scored, agent_error or infra_error`},
		{"an infra error says its kind", func(r *Record) { r.Outcome = OutcomeInfraError }, `field "error_kind": missing on an infra_error record`},
		{"a scored record has no error kind", func(r *Record) { r.ErrorKind = "timeout" }, `field "error_kind": "timeout" on a scored record`},
		{"attempts are not negative", func(r *Record) { r.Attempts = -1 }, `field "attempts": -1 is negative`},
		{"track is required", func(r *Record) { r.Track = "" }, `field "track"`},
		{"family is required", func(r *Record) { r.Family = "" }, `field "family"`},
		{"perturbation is required", func(r *Record) { r.Perturbation = "" }, `field "perturbation"`},
		{"agent is required", func(r *Record) { r.Agent = "" }, `field "agent"`},
		{"negative episode index", func(r *Record) { r.Episode = -1 }, `field "episode": -1 is negative`},
		{"perception errors are counts", func(r *Record) { r.PhantomNodes, r.MissedObjects, r.WrongRelations, r.UnmappedRelations = 1, 2, 3, 4 }, ""},
		{"phantom nodes are not negative", func(r *Record) { r.PhantomNodes = -1 }, `field "phantom_nodes": -1 is negative`},
		{"missed objects are not negative", func(r *Record) { r.MissedObjects = -1 }, `field "missed_objects": -1 is negative`},
		{"wrong relations are not negative", func(r *Record) { r.WrongRelations = -1 }, `field "wrong_relations": -1 is negative`},
		{"unmapped relations are not negative", func(r *Record) { r.UnmappedRelations = -1 }, `field "unmapped_relations": -1 is negative`},
		{"negative question count", func(r *Record) { r.Questions = -1; r.TagCorrect = 0 }, `field "questions"`},
		{"negative tag_correct", func(r *Record) { r.TagCorrect = -1 }, `field "tag_correct"`},
		{"more correct tags than questions would push tag accuracy above 1", func(r *Record) { r.TagCorrect = 2 }, `field "tag_correct": 2 exceeds questions (1)`},
		{"negative steps", func(r *Record) { r.Steps = -3 }, `field "steps"`},
		{"negative tool-call count, reported by the first tool in name order", func(r *Record) { r.ToolCalls = map[string]int{"b": -1, "a": -2} }, `count -2 for "a"`},
		{"negative wall time", func(r *Record) { r.WallMS = -1 }, `field "wall_ms"`},
		{"NaN wall time cannot be written as JSON", func(r *Record) { r.WallMS = math.NaN() }, `field "wall_ms"`},
		{"infinite wall time cannot be written as JSON", func(r *Record) { r.WallMS = math.Inf(1) }, `field "wall_ms"`},
		{"records from before the reflection breakdowns have none", func(r *Record) { r.Reflections, r.ReflectionTokens = 2, 300 }, ""},
		{"a breakdown that matches its totals", func(r *Record) {
			r.Reflections, r.ReflectionTokens, r.ReflectionTokenCounts = 2, 300, []int{100, 200}
			r.ReflectionTools = map[string]int{"lesson": 2, "plan": 1}
		}, ""},
		{"negative tool-call count of a reflection tool", func(r *Record) { r.ReflectionTools = map[string]int{"plan": -1} }, `field "reflection_tools": count -1 for "plan"`},
		{"one token count per reflection", func(r *Record) { r.Reflections, r.ReflectionTokens, r.ReflectionTokenCounts = 1, 300, []int{100, 200} }, `field "reflection_token_counts": 2 entries for 1 reflections`},
		{"token counts sum to the reflection tokens", func(r *Record) { r.Reflections, r.ReflectionTokens, r.ReflectionTokenCounts = 2, 301, []int{100, 200} }, `sum to 300, not reflection_tokens (301)`},
		{"a negative token count", func(r *Record) { r.Reflections, r.ReflectionTokens, r.ReflectionTokenCounts = 2, 100, []int{200, -100} }, `entry 1 is negative`},
		{"counts that wrap around an int cannot fake their sum", func(r *Record) {
			r.Reflections, r.ReflectionTokens, r.ReflectionTokenCounts = 3, 0, []int{math.MaxInt, math.MaxInt, 2}
		}, `overflow`},
		{"a semmap hit at every k", func(r *Record) { r.Top1, r.Top2, r.Top3, r.TopAny = true, true, true, true }, ""},
		{"a Top-1 hit is a Top-2 hit", func(r *Record) { r.Top1, r.TopAny = true, true }, `field "top1": true while top2 is false`},
		{"a Top-3 hit is a Top-Any hit", func(r *Record) { r.Top3 = true }, `field "top3": true while top_any is false`},
		{"no readable answer: a miss with no ids", func(r *Record) { r.NoReadableAnswer, r.Truth = true, nil }, ""},
		{"no readable answer cannot score the empty truth as a hit", func(r *Record) {
			r.NoReadableAnswer, r.Top1, r.Top2, r.Top3, r.TopAny = true, true, true, true, true
		}, `field "no_readable_answer": set, but the record scores a hit`},
		{"no readable answer cannot hold an answer", func(r *Record) { r.NoReadableAnswer, r.Answer = true, []string{"obj1"} }, `field "no_readable_answer": set, but answer holds 1 ids`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRecord()
			tt.change(&r)
			err := r.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("Validate() = nil, want error containing %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("Validate() = %q, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// A repeat is in the keys only when above 0, so that repeat 0 keeps the
// key a record without repeats always had.
func TestKeyRepeat(t *testing.T) {
	t.Parallel()
	base := validRecord()
	r := base
	r.Repeat = 0
	if r.Key() != base.Key() || r.EpisodeKey() != base.EpisodeKey() {
		t.Fatalf("repeat 0 changed the key: %s", r.Key())
	}
	r.Repeat, r.SceneSize = 2, 24
	if got, want := r.PlainKey(), "tabletop/pick_place/absence/sgcot/sim/42/7/n=24/r=2"; got != want {
		t.Errorf("PlainKey() = %s, want %s", got, want)
	}
	if got, want := r.Key(), `"tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/42/7/n=24/r=2`; got != want {
		t.Errorf("Key() = %s, want %s", got, want)
	}
	if got, want := r.EpisodeKey(), `"tabletop"/"pick_place"/"absence"/"sgcot"/42/7/n=24/r=2`; got != want {
		t.Errorf("EpisodeKey() = %s, want %s", got, want)
	}
	r.Repeat = -1
	if err := r.Validate(); err == nil {
		t.Error("a negative repeat is valid")
	}
}

// ScoredOnly drops infrastructure failures and keeps the order; when
// nothing is dropped it shares recs rather than copying them, and an
// append to what it returns still leaves recs alone.
func TestScoredOnlySharesWhenAllCount(t *testing.T) {
	t.Parallel()
	scored := Record{Outcome: OutcomeScored, Episode: 1}
	agentErr := Record{Outcome: OutcomeAgentError, Episode: 2}
	infra := Record{Outcome: OutcomeInfraError, Episode: 3}
	for _, tc := range []struct {
		why    string
		recs   []Record
		want   []int // episodes kept
		shared bool
	}{
		{"nothing to drop: shared", []Record{scored, agentErr}, []int{1, 2}, true},
		{"an infrastructure failure is dropped: copied", []Record{scored, infra, agentErr}, []int{1, 2}, false},
		{"only failures", []Record{infra}, nil, false},
		{"empty", nil, nil, true},
	} {
		got := ScoredOnly(tc.recs)
		var eps []int
		for _, r := range got {
			eps = append(eps, r.Episode)
		}
		if !slices.Equal(eps, tc.want) {
			t.Errorf("%s: episodes %v, want %v", tc.why, eps, tc.want)
		}
		if shared := len(got) > 0 && &got[0] == &tc.recs[0]; shared != (tc.shared && len(got) > 0) {
			t.Errorf("%s: shared %v, want %v", tc.why, shared, tc.shared)
		}
		if len(got) > 0 {
			backing := slices.Clone(tc.recs)
			_ = append(got, infra)
			if !slices.EqualFunc(backing, tc.recs, func(a, b Record) bool { return a.Episode == b.Episode }) {
				t.Errorf("%s: an append to the result wrote into recs", tc.why)
			}
		}
	}
}

// A tabletop record (no trials) is solved at trial 1 when it succeeded.
func TestSolvedBySingleTrial(t *testing.T) {
	t.Parallel()
	if !(Record{Suite: 1, Outcome: OutcomeScored, Success: true}).SolvedBy(1) || (Record{}).SolvedBy(5) || (Record{Suite: 1, Outcome: OutcomeScored, Trials: 2, SolvedTrial: 2, Success: true}).SolvedBy(1) {
		t.Error("SolvedBy disagrees with the trial it was solved at")
	}
}

// TopK follows docs/metrics.md's definition row by row.
func TestTopK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		y, g []string
		want [4]bool
	}{
		{"both empty: a hit at every k", nil, nil, [4]bool{true, true, true, true}},
		{"no answer where there is a truth: a miss", nil, []string{"a"}, [4]bool{}},
		{"an answer where the truth is empty: a miss", []string{"a"}, nil, [4]bool{}},
		{"first id right: hits at every k", []string{"a", "x"}, []string{"a"}, [4]bool{true, true, true, true}},
		{"second id right: Top-2 and up", []string{"x", "a"}, []string{"a", "b"}, [4]bool{false, true, true, true}},
		{"third id right", []string{"x", "y", "b"}, []string{"a", "b"}, [4]bool{false, false, true, true}},
		{"fifth id right: Top-Any only", []string{"x", "y", "z", "w", "a"}, []string{"a"}, [4]bool{false, false, false, true}},
		{"none right", []string{"x", "y"}, []string{"a"}, [4]bool{}},
	} {
		t1, t2, t3, ta := TopK(tc.y, tc.g)
		if got := [4]bool{t1, t2, t3, ta}; got != tc.want {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}

func BenchmarkTopK(b *testing.B) {
	y := []string{"obj9", "obj4", "obj17", "obj2", "obj30"}
	g := []string{"obj2", "obj5", "obj6"}
	for b.Loop() {
		for range 10000 {
			TopK(y, g)
		}
	}
}
