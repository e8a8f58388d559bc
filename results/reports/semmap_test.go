package reports

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// OverReflection names why a reflection workflow lost a query the baseline
// had right.
func TestOverReflection(t *testing.T) {
	t.Parallel()
	base := results.Record{Suite: 1, Outcome: results.OutcomeScored, Answer: []string{"obj1", "obj2"}, Truth: []string{"obj1", "obj2"}}
	for _, tc := range []struct {
		why  string
		base results.Record
		refl results.Record
		want string
	}{
		{"the truth is empty and the workflow answered objects", results.Record{}, results.Record{Answer: []string{"obj3"}}, overAdded},
		{"an id that is not in the map", base, results.Record{Answer: []string{"obj99", "obj1"}, Truth: base.Truth, Hallucinated: 1}, overHallucinated},
		{"a relevant object the baseline gave is gone", base, results.Record{Answer: []string{"obj5"}, Truth: base.Truth}, overRemoved},
		{"no answer could be read: not a reflection's doing, whatever the truth", results.Record{}, results.Record{NoReadableAnswer: true}, overUnread},
		{"the same objects, another order", results.Record{Answer: []string{"obj1"}, Truth: []string{"obj1"}}, results.Record{Answer: []string{"obj4", "obj1"}, Truth: []string{"obj1"}}, overReordered},
	} {
		if got := OverReflection(tc.base, tc.refl); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.why, got, tc.want)
		}
	}
}

// semmapRecords is a small semmap run for the report's golden file:
// oracle, baseline and self-reflect in both input modes on maps of 10 and
// 40 objects, two query types, one query in four with an empty truth. The
// baseline's certainty answers are better than its uncertainty ones, so a
// pooled row would hide a difference; self-reflect loses some of the
// baseline's hits (objects added where the truth is empty) and, in the
// first query on the small map, in both modes, has a reply that could not be read.
func semmapRecords() []results.Record {
	var recs []results.Record
	for _, agent := range []string{"oracle", "baseline", "self-reflect"} {
		for _, mode := range []string{"uncertainty", "certainty"} {
			ep := 0
			for _, size := range []int{10, 40} {
				for q := range 8 {
					family := []string{"descriptive", "negation"}[q%2]
					r := results.Record{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: family, Perturbation: mode, Label: "none", Agent: agent, Seed: 1, Episode: ep,
						Dataset: "builtin", Map: fmt.Sprintf("map%d", size), MapObjects: size, Query: fmt.Sprintf("q%d", q),
						Difficulty: []string{"easy", "difficult"}[q/4], Truth: []string{"obj1"}}
					if q%4 == 3 {
						r.Truth = nil
					}
					r.Answer = r.Truth
					switch {
					case agent == "baseline" && mode == "uncertainty" && q < 3:
						r.Answer = []string{"obj2", "obj1"}
					case agent == "self-reflect" && q%4 == 3 && size == 40:
						r.Answer = []string{"obj5"}
					case agent == "self-reflect" && q == 0 && size == 10:
						r.Answer, r.NoReadableAnswer, r.Error = nil, true, "self-reflect: no readable answer: last refinement: no JSON object"
					}
					if agent != "oracle" {
						r.Model, r.Calls, r.InputTokens = "sim", 1+4*b2i(agent == "self-reflect"), 100*size
					}
					if !r.NoReadableAnswer {
						r.Top1, r.Top2, r.Top3, r.TopAny = results.TopK(r.Answer, r.Truth)
					}
					recs = append(recs, r)
					ep++
				}
			}
		}
	}
	return recs
}

// The Top-k table has a row per input mode and query type and per
// difficulty, one per dataset only when there are several, and a pooled
// row, labelled as counting each pair twice, only when an agent ran in
// both modes.
func TestTopKTableRows(t *testing.T) {
	t.Parallel()
	recs := []results.Record{
		{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: "negation", Perturbation: "certainty", Agent: "rules", Episode: 0, Dataset: "a", Difficulty: "easy", Top1: true, Top2: true, Top3: true, TopAny: true},
		{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: "affordance", Perturbation: "certainty", Agent: "rules", Episode: 1, Dataset: "a", Difficulty: "difficult"},
		{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: "negation", Perturbation: "uncertainty", Agent: "rules", Episode: 0, Dataset: "a", Difficulty: "easy", NoReadableAnswer: true},
		{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: "negation", Perturbation: "certainty", Agent: "oracle", Episode: 0, Dataset: "a", Difficulty: "easy", Top1: true, Top2: true, Top3: true, TopAny: true},
	}
	var b strings.Builder
	if err := TopKMarkdown(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| rules | certainty | all | 0.50", "| rules | certainty | negation | 1.00", "| rules | certainty | difficulty difficult | 0.00", "| rules | certainty | difficulty easy | 1.00",
		"| rules | uncertainty | all | 0.00 [0.00, 0.79] (n=1) | 0.00 [0.00, 0.79] (n=1) | 0.00 [0.00, 0.79] (n=1) | 0.00 [0.00, 0.79] (n=1) | — | 1 of 1 |",
		"| rules | " + pooledModes + " | all | 0.33 [0.06, 0.79] (n=3)",
		"| oracle | certainty | all | 1.00",
		"every pair counts twice",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q in\n%s", want, out)
		}
	}
	for _, absent := range []string{"dataset a", "| oracle | " + pooledModes} {
		if strings.Contains(out, absent) {
			t.Errorf("%q in\n%s", absent, out)
		}
	}
}

// Records whose maps carry an origin get the agentic-workflows paper's
// split, origin by query type, each mode on its own rows; records without
// origins get no such table.
func TestTopKByOrigin(t *testing.T) {
	t.Parallel()
	rec := func(origin, family, mode string, ep int, hit bool) results.Record {
		return results.Record{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: family, Perturbation: mode, Agent: "rules", Episode: ep,
			Dataset: "paper", Map: origin + "_map", MapOrigin: origin, Top1: hit, Top2: hit, Top3: hit, TopAny: hit}
	}
	recs := []results.Record{
		rec("ScanNet", "negation", "certainty", 0, true), rec("ScanNet", "negation", "certainty", 1, false),
		rec("ScanNet", "affordance", "certainty", 2, true),
		rec("SceneNN", "negation", "certainty", 3, false), rec("SceneNN", "affordance", "certainty", 4, true),
		rec("SceneNN", "affordance", "uncertainty", 4, false),
	}
	var b strings.Builder
	if err := TopKMarkdown(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Top-k by map origin and query type",
		"| rules | certainty | ScanNet | all | 0.67",
		"| rules | certainty | ScanNet | negation | 0.50",
		"| rules | certainty | ScanNet | affordance | 1.00",
		"| rules | certainty | SceneNN | all | 0.50",
		"| rules | certainty | SceneNN | negation | 0.00",
		"| rules | uncertainty | SceneNN | affordance | 0.00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "| rules | uncertainty | ScanNet") || strings.Contains(out, noOrigin) {
		t.Errorf("rows for records that are not there:\n%s", out)
	}
	// A dataset without origins beside one with: its records are named so.
	recs = append(recs, results.Record{Schema: 1, Suite: 1, Outcome: results.OutcomeScored, Track: "semmap", Family: "negation", Perturbation: "certainty", Agent: "rules", Episode: 9, Dataset: "builtin", Map: "house_01"})
	b.Reset()
	if err := TopKMarkdown(&b, recs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| rules | certainty | "+noOrigin+" | all | 0.00") {
		t.Errorf("no row for the records without an origin in\n%s", b.String())
	}
	b.Reset()
	if err := TopKMarkdown(&b, semmapRecords()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "map origin") {
		t.Errorf("records without origins got an origin table:\n%s", b.String())
	}
}
