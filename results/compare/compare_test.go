package compare

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// cellRecs makes n scored records of one agent on one cell, the first k
// successful (SR and ADA alike); query makes them semmap-like.
func cellRecs(agent, model, pert string, n, k int, query bool) []results.Record {
	var out []results.Record
	for i := range n {
		r := results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: pert,
			Agent: agent, Model: model, Seed: 1, Episode: i, Success: i < k, ADA: i < k}
		if query {
			r.Track, r.Query, r.Top1, r.Top2, r.Top3, r.TopAny = "semmap", fmt.Sprint("q", i), i < k, i < k, i < k, i < k
		}
		out = append(out, r)
	}
	return out
}

func TestCompare(t *testing.T) {
	t.Parallel()
	base := cellRecs("sgcot", "sim", "absence", 100, 80, false)
	drop := cellRecs("sgcot", "sim:salt=1", "absence", 100, 54, false) // 0.26 fewer: the power figure
	infra := cellRecs("sgcot", "sim", "absence", 100, 80, false)
	infra[0].Outcome, infra[0].ErrorKind = results.OutcomeInfraError, "timeout"
	for _, tc := range []struct {
		why        string
		base, new  []results.Record
		opts       Options
		failures   int
		verdict    string // of the first comparison
		infra      int
		unpaired   string
		onlyBase   int
		comparison int
	}{
		{why: "identical runs: nothing moves", base: base, new: base, verdict: VerdictSame, comparison: 2},
		{why: "the model differs and may: a drop of the README's power size fails", base: base, new: drop, failures: 2, verdict: VerdictWorse, comparison: 2},
		{why: "the drop on an agent that is not gated does not fail", base: base, new: drop, opts: Options{Agents: []string{"direct"}}, verdict: VerdictWorse, comparison: 2},
		{why: "only ADA gated: one failure", base: base, new: drop, opts: Options{Metrics: []string{"ADA"}}, failures: 1, verdict: VerdictWorse, comparison: 2},
		{why: "a minimum effect above the drop: same", base: base, new: drop, opts: Options{MinEffect: 0.3}, verdict: VerdictSame, comparison: 2},
		{why: "a rise is better, never a failure", base: drop, new: base, verdict: VerdictBetter, comparison: 2},
		{why: "an infra pair is left out and counted", base: base, new: infra, verdict: VerdictSame, infra: 1, comparison: 2},
		{why: "queries are scored by Top1 alone", base: cellRecs("a", "sim", "text", 20, 10, true), new: cellRecs("a", "sim", "text", 20, 10, true), verdict: VerdictSame, comparison: 1},
		{why: "an episode missing from one side of a group: refused", base: base, new: base[:99], unpaired: "1 only in BASE"},
		{why: "nothing pairs: refused", base: base, new: cellRecs("sgcot", "sim", "none", 10, 5, false), unpaired: "no agent and cell is in both runs"},
		{why: "a group on one side only is named and left out", base: append(cellRecs("direct", "sim", "none", 5, 5, false), base...), new: base, verdict: VerdictSame, onlyBase: 1, comparison: 2},
		{why: "one agent under two models on one side: refused", base: append(cellRecs("sgcot", "sim:weak", "none", 5, 5, false), base...), new: base, unpaired: "two models"},
		{why: "an episode twice on one side: refused, rather than paired by the later record", base: base, new: append(slices.Clone(base), base[7]), unpaired: `NEW holds episode "tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/1/7 twice (records 8 and 101)`},
	} {
		res, err := Runs(tc.base, tc.new, tc.opts)
		if tc.unpaired != "" {
			var ue *UnpairedError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.unpaired) {
				t.Errorf("%s: got %v, want an UnpairedError with %q", tc.why, err, tc.unpaired)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.why, err)
			continue
		}
		if len(res.Comparisons) != tc.comparison || len(res.Failures()) != tc.failures || res.Comparisons[0].Verdict != tc.verdict ||
			res.InfraPairs != tc.infra || len(res.OnlyBase) != tc.onlyBase {
			t.Errorf("%s: got %d comparisons, %d failures, verdict %s, %d infra pairs, only in BASE %v; want %d, %d, %s, %d, %d",
				tc.why, len(res.Comparisons), len(res.Failures()), res.Comparisons[0].Verdict, res.InfraPairs, res.OnlyBase,
				tc.comparison, tc.failures, tc.verdict, tc.infra, tc.onlyBase)
		}
	}
}

func TestCompareSettings(t *testing.T) {
	t.Parallel()
	rf := func(kv ...string) results.RunFile {
		s := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			s[kv[i]] = kv[i+1]
		}
		return results.RunFile{Settings: s}
	}
	for _, tc := range []struct {
		why        string
		base, new  results.RunFile
		allowSuite bool
		err        string
		compared   int
	}{
		{why: "equal settings", base: rf("seed", "1"), new: rf("seed", "1")},
		{why: "a seed makes other episodes: refused, named with both values", base: rf("seed", "1"), new: rf("seed", "2"), err: "seed: 1 in BASE, 2 in NEW"},
		{why: "a step limit too", base: rf("step_limit", "40"), new: rf("step_limit", "20"), err: "step_limit"},
		{why: "a router is compared, like a model", base: rf("router", "a"), new: rf("router", "b"), compared: 1},
		{why: "a replaced prompt template is compared, like a router", base: rf("seed", "1"), new: rf("seed", "1", "prompt:tabletop/direct_system.tmpl", "ab12"), compared: 1},
		{why: "another suite: refused", base: rf("suite", "1"), new: rf("suite", "2"), err: "--allow-suite-mismatch"},
		{why: "another suite, allowed", base: rf("suite", "1"), new: rf("suite", "2"), allowSuite: true, compared: 1},
		{why: "a dataset elsewhere with the same hash", base: rf("data", "/a", "data_hash", "h"), new: rf("data", "/b", "data_hash", "h")},
	} {
		compared, err := Settings(tc.base, tc.new, tc.allowSuite)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want an error with %q", tc.why, err, tc.err)
			}
			continue
		}
		if err != nil || len(compared) != tc.compared {
			t.Errorf("%s: got %v, %v; want %d compared", tc.why, compared, err, tc.compared)
		}
	}
}

func TestExactDiff(t *testing.T) {
	t.Parallel()
	base := cellRecs("sgcot", "sim", "absence", 3, 2, false)
	for _, tc := range []struct {
		why  string
		edit func(*results.Record)
		want string
	}{
		{"the model and the timings are not scored", func(r *results.Record) { r.Model, r.WallMS, r.LatencyP95MS = "other", 9, 9 }, ""},
		{"one flipped success", func(r *results.Record) { r.Success = false }, "tabletop/pick_place/absence/sgcot/sim/1/1: success is true in BASE, false in NEW"},
		{"a tool call count", func(r *results.Record) { r.ToolCalls = map[string]int{"ask": 1} }, "tool_calls"},
	} {
		new := append([]results.Record(nil), base...)
		tc.edit(&new[1])
		got := ExactDiff(base, new)
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s: got %v, want none", tc.why, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0].String(), tc.want)):
			t.Errorf("%s: got %v, want one with %q", tc.why, got, tc.want)
		}
	}
}

func ExampleRuns() {
	base := cellRecs("sgcot", "sim", "absence", 100, 80, false)
	new := cellRecs("sgcot", "sim:weak", "absence", 100, 54, false)
	res, err := Runs(base, new, Options{MinEffect: 0.05})
	if err != nil {
		fmt.Println(err)
		return
	}
	WriteText(os.Stdout, res)
	// Output:
	// models: BASE sim; NEW sim:weak
	// 100 paired episodes; 0 pairs left out for infrastructure errors (0 in BASE, 0 in NEW)
	// gate: α 0.05 after Holm's correction over 2 comparisons, minimum effect 0.05; agents gated: all; metrics gated: each cell's (SR and ADA; Top1 for queries)
	//
	// agent  track     cell                metric  n    base   new    diff    b   c  p        p(Holm)  verdict
	// sgcot  tabletop  pick_place/absence  SR      100  0.800  0.540  -0.260  26  0  3.0e-08  6.0e-08  worse
	// sgcot  tabletop  pick_place/absence  ADA     100  0.800  0.540  -0.260  26  0  3.0e-08  6.0e-08  worse
	// FAIL: 2 gated comparisons are significantly worse by 0.050 or more: sgcot tabletop pick_place/absence SR -0.260 (p=3.0e-08, Holm p=6.0e-08); sgcot tabletop pick_place/absence ADA -0.260 (p=3.0e-08, Holm p=6.0e-08)
}
