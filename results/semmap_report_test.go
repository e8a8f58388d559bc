package results

import (
	"strings"
	"testing"
)

// OverReflection names why a reflection workflow lost a query the baseline
// had right.
func TestOverReflection(t *testing.T) {
	base := Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj1", "obj2"}, Truth: []string{"obj1", "obj2"}}
	for _, tc := range []struct {
		why  string
		base Record
		refl Record
		want string
	}{
		{"the truth is empty and the workflow answered objects", Record{}, Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj3"}}, overAdded},
		{"an id that is not in the map", base, Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj99", "obj1"}, Truth: base.Truth, Hallucinated: 1}, overHallucinated},
		{"a relevant object the baseline gave is gone", base, Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj5"}, Truth: base.Truth}, overRemoved},
		{"the same objects, another order", Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj1"}, Truth: []string{"obj1"}}, Record{Suite: 1, Outcome: OutcomeScored, Answer: []string{"obj4", "obj1"}, Truth: []string{"obj1"}}, overReordered},
	} {
		if got := OverReflection(tc.base, tc.refl); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.why, got, tc.want)
		}
	}
}

// The Top-k table has a row per query type and per difficulty, and one
// per dataset only when there are several.
func TestTopKTableRows(t *testing.T) {
	recs := []Record{
		{Schema: 1, Track: "semmap", Family: "negation", Perturbation: "certainty", Agent: "rules", Episode: 0, Dataset: "a", Difficulty: "easy", Top1: true, Top2: true, Top3: true, TopAny: true},
		{Schema: 1, Track: "semmap", Family: "affordance", Perturbation: "certainty", Agent: "rules", Episode: 1, Dataset: "a", Difficulty: "difficult"},
	}
	var b strings.Builder
	if err := TopKMarkdown(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"| rules | all | 0.50", "| rules | negation | 1.00", "| rules | difficulty difficult | 0.00", "| rules | difficulty easy | 1.00"} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "dataset a") {
		t.Errorf("a row per dataset with one dataset:\n%s", out)
	}
}
