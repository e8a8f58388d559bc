package cli

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/models"
)

// Flags and specs that ran with exit 0 and no word (issue 33) are refused
// before any episode, by the flag and what was wrong with it.
func TestRunRefusesWhatItWouldIgnore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		args []string
		want string
	}{
		{"--agents \"\" ran every agent: an empty list is the runner's all", []string{"--agents", ""},
			`run: --agents "": names no agent; name some (ambibench list shows them) or write all`},
		{"--agents \",\" names no agent either", []string{"--agents", ","}, `run: --agents ",": names no agent`},
		{"--tasks \",\" ran every family", []string{"--agents", "oracle", "--tasks", ","}, `run: --tasks ",": names no task family; name some, or leave the flag out for all of them`},
		{"--perturbations \",\" ran every perturbation", []string{"--agents", "oracle", "--perturbations", " , "}, `run: --perturbations " , ": names no perturbation`},
		{"--ensemble-models \",\" sampled from --model alone, as if it were not given", []string{"--track", "semmap", "--agents", "ensemble", "--ensemble-models", ","},
			`run: --ensemble-models ",": names no model spec; write specs separated by commas, or leave the flag out to sample from --model alone`},
		{"a NaN rate ran as no rate", []string{"--agents", "direct", "--model", "sim:hallucinate=NaN"}, `run: --model: model spec "sim:hallucinate=NaN": sim profile "hallucinate=NaN": hallucinate=NaN: want a number in [0, 1]`},
		{"an infinite growth ran with every rate at 1", []string{"--agents", "direct", "--model", "sim:growth=Inf"}, "growth=Inf: want a finite number ≥ 0"},
		{"a rate given twice ran with the last", []string{"--agents", "direct", "--model", "sim:hallucinate=0.1,hallucinate=0.9"}, "hallucinate is given twice"},
		{"sim: ran the default profile under the name \"sim:\"", []string{"--agents", "direct", "--model", "sim:"}, `run: --model: model spec "sim:": nothing after "sim:"`},
		{"a bad spec no agent opens is refused as one it opens", []string{"--agents", "oracle", "--model", "sim:"}, `run: --model: model spec "sim:": nothing after "sim:"`},
		{"--scene-sizes 1: the records said 1 and the tables held 6 or 7", []string{"--agents", "oracle", "--scene-sizes", "1"},
			"run: --scene-sizes: a table of 1 object cannot be built: pick_place/multiplicity holds 7 objects before any distractor, and its records would say 1; the smallest size this grid can build is 7 (0 plays each cell at its own size)"},
		{"6 is a family's own size, but multiplicity's look-alike makes 7", []string{"--agents", "oracle", "--tasks", "spatial", "--scene-sizes", "6,12"},
			"a table of 6 objects cannot be built: spatial/multiplicity holds 7 objects"},
		{"semmap --modes \",\" ran certainty alone, the default, as if the flag were not given", []string{"--track", "semmap", "--agents", "oracle", "--modes", ","},
			`--modes ",": names no input mode; name some (certainty, uncertainty), or leave the flag out for certainty alone`},
		{"a grid with no cell printed \"No results.\" and exited 0", []string{"--agents", "all", "--tasks", "spatial", "--perturbations", "partial_observability"},
			"run: --perturbations partial_observability: applies to no task family of --tasks spatial (it applies to pick_place, handover only); the grid is empty"},
		{"a perturbation that meets none of the families is dropped unseen from a grid that is not empty", []string{"--agents", "oracle", "--tasks", "spatial", "--perturbations", "none,partial_observability"},
			"run: --perturbations partial_observability: applies to no task family of --tasks spatial (it applies to pick_place, handover only); it would play nothing"},
		{"a family that no perturbation of the list applies to", []string{"--agents", "oracle", "--tasks", "pick_place,spatial", "--perturbations", "partial_observability"},
			"run: --tasks spatial: no perturbation of --perturbations partial_observability applies to it; it would play nothing"},
	} {
		_, _, err := runCLI(t, append([]string{"run", "--episodes", "1", "--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant …%s", tc.why, err, tc.want)
		}
	}
}

// What the refusals above must not catch: the defaults, sizes the grid
// builds, a perturbation that applies to some family of the list.
func TestRunAcceptsWhatItPlays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		args []string
	}{
		{"the default agents", nil},
		{"--tasks \"\" is the default, all families", []string{"--agents", "oracle", "--tasks", ""}},
		{"--ensemble-models \"\" is the default, --model alone", []string{"--track", "semmap", "--agents", "ensemble", "--ensemble-models", ""}},
		{"the smallest size the grid builds, and the family's own", []string{"--agents", "oracle", "--tasks", "pick_place", "--scene-sizes", "0,7"}},
		{"without multiplicity six objects is a table every cell builds", []string{"--agents", "oracle", "--tasks", "pick_place", "--perturbations", "none,absence", "--scene-sizes", "6"}},
		{"partial_observability applies to one of the families", []string{"--agents", "oracle", "--tasks", "pick_place,handover", "--perturbations", "partial_observability"}},
	} {
		if _, stderr, err := runCLI(t, append([]string{"run", "--episodes", "1", "--quiet"}, tc.args...)...); err != nil {
			t.Errorf("%s: %v\n%s", tc.why, err, stderr)
		}
	}
}

// A bad --model names the spec and what was wrong, then the kinds in a
// line; it repeated all of models.Forms, 400 characters (issue 33).
func TestBadModelSpecIsShort(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "run", "--agents", "direct", "--episodes", "1", "--model", "bogus:x")
	want := `run: --model: model spec "bogus:x": unknown kind "bogus"; valid forms: sim[:PROFILE], gemini:MODEL, openai:MODEL, anthropic:MODEL, record:DIR=SPEC or replay:DIR[=MODEL] ("ambibench run --help" gives every form)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err != nil && strings.Contains(err.Error(), models.Forms) {
		t.Errorf("the whole list of forms again: %d characters", len(err.Error()))
	}
}

// --examples 3,7,3, the default the help states, was refused on a
// directory made without the flag (issue 33); it is the same run, and
// so is the reverse. Other counts are another protocol, refused by name.
func TestExamplesDefaultResumes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why           string
		first, second []string
		refused       string // "" for a resume
	}{
		{"the default given on the second run", nil, []string{"--examples", "3,7,3"}, ""},
		{"the default given on the first run, left out on the second", []string{"--examples", "3,7,3"}, nil, ""},
		{"other counts are another protocol", nil, []string{"--examples", "2,0,0"}, "examples: (unset) in the directory, 2,0,0 now"},
	} {
		dir := t.TempDir()
		base := []string{"run", "--track", "semmap", "--agents", "rules", "--episodes", "1", "--quiet", "--out", dir}
		if _, stderr, err := runCLI(t, append(base, tc.first...)...); err != nil {
			t.Fatalf("%s: first run: %v\n%s", tc.why, err, stderr)
		}
		_, _, err := runCLI(t, append(base, tc.second...)...)
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.why, err)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%s: got %v, want a refusal naming %q", tc.why, err, tc.refused)
		}
	}
}
