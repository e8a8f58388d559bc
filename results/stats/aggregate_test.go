package stats

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/results"
)

func TestAggregateCounts(t *testing.T) {
	t.Parallel()
	a := rec("sgcot", "pick_place", "absence", true, true)
	a.Questions, a.TagCorrect, a.Steps, a.WallMS = 2, 1, 4, 10
	b := rec("sgcot", "pick_place", "absence", false, false)
	b.Questions, b.TagCorrect, b.Steps, b.WallMS = 1, 1, 6, 20
	b.Error = "malformed reply"
	c := rec("sgcot", "pick_place", "absence", true, false)
	c.Steps, c.WallMS = 2, 30

	got := Aggregate([]results.Record{a, b, c}, AggregateOptions{ByFamily: true})
	want := []Cell{{
		Agent: "sgcot", Family: "pick_place", Perturbation: "absence",
		N:      3,
		ADA:    Rate{2, 3},
		SR:     Rate{1, 3},
		TagAcc: Rate{2, 3}, // 1+1 correct of 2+1 questions
		Steps:  4,          // (4+6+2)/3
		WallMS: 20,         // (10+20+30)/3
		Errors: 1,
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Aggregate:\ngot  %+v\nwant %+v", got, want)
	}
}

// keys lists the (agent, family, perturbation) of cells with their N.
func keys(cells []Cell) [][4]any {
	out := [][4]any{}
	for _, c := range cells {
		out = append(out, [4]any{c.Agent, c.Family, c.Perturbation, c.N})
	}
	return out
}

func TestAggregateGroupingAndOrder(t *testing.T) {
	t.Parallel()
	recs := []results.Record{
		rec("rules", "stack", "none", true, true),
		rec("sgcot", "pick_place", "absence", true, true),
		rec("rules", "pick_place", "none", true, true),
		rec("oracle", "pick_place", "multiplicity", true, true),
		rec("sgcot", "stack", "absence", true, true),
		rec("rules", "pick_place", "absence", true, true),
		rec("sgcot", "pick_place", "none", true, true),
	}
	tests := []struct {
		name string // why the row exists
		opts AggregateOptions
		want [][4]any
	}{
		{"families pool into '*' and everything sorts alphabetically", AggregateOptions{}, [][4]any{
			{"oracle", "*", "multiplicity", 1},
			{"rules", "*", "absence", 1},
			{"rules", "*", "none", 2},
			{"sgcot", "*", "absence", 2},
			{"sgcot", "*", "none", 1},
		}},
		{"by family: one cell per family, families alphabetical", AggregateOptions{ByFamily: true}, [][4]any{
			{"oracle", "pick_place", "multiplicity", 1},
			{"rules", "pick_place", "absence", 1},
			{"rules", "pick_place", "none", 1},
			{"rules", "stack", "none", 1},
			{"sgcot", "pick_place", "absence", 1},
			{"sgcot", "pick_place", "none", 1},
			{"sgcot", "stack", "absence", 1},
		}},
		{"given agent and perturbation orders win; unlisted names follow alphabetically; unknown names are ignored",
			AggregateOptions{Agents: []string{"sgcot", "ghost", "rules"}, Perturbations: []string{"none", "absence"}}, [][4]any{
				{"sgcot", "*", "none", 1},
				{"sgcot", "*", "absence", 2},
				{"rules", "*", "none", 2},
				{"rules", "*", "absence", 1},
				{"oracle", "*", "multiplicity", 1},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keys(Aggregate(recs, tt.opts)); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("cells:\ngot  %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestAggregateEmptyAndDeterministic(t *testing.T) {
	t.Parallel()
	if got := Aggregate(nil, AggregateOptions{}); len(got) != 0 {
		t.Fatalf("Aggregate(nil) = %v, want no cells", got)
	}
	recs := []results.Record{
		rec("b", "f", "p", true, false),
		rec("a", "f", "q", false, true),
		rec("a", "f", "p", true, true),
		rec("a", "f", "p", false, true),
		rec("a", "f", "p", true, false),
	}
	// Wall times whose float sum depends on the order of addition.
	recs[2].WallMS, recs[3].WallMS, recs[4].WallMS = 0.1, 0.2, 0.3
	reversed := slices.Clone(recs)
	slices.Reverse(reversed)
	if x, y := Aggregate(recs, AggregateOptions{}), Aggregate(reversed, AggregateOptions{}); !reflect.DeepEqual(x, y) {
		t.Fatalf("input order changed the result:\n%+v\n%+v", x, y)
	}
}

// An Aggregator fed the records one at a time gives Aggregate's cells,
// but for the mean wall time, which it leaves zero.
func TestAggregatorIsAggregate(t *testing.T) {
	t.Parallel()
	var recs []results.Record
	for i := range 60 {
		recs = append(recs, results.Record{Agent: []string{"b", "a", "c"}[i%3], Family: []string{"f", "g"}[i%2], Perturbation: []string{"none", "absence", "zz"}[i%5%3],
			ADA: i%4 == 0, Success: i%3 == 0, Steps: i, WallMS: float64(i) + 0.25, Questions: i % 2, TagCorrect: i % 4 / 3,
			Outcome: []string{results.OutcomeScored, results.OutcomeScored, results.OutcomeInfraError}[i%7%3]})
	}
	for _, opts := range []AggregateOptions{{}, {ByFamily: true}, {Agents: []string{"c"}, Perturbations: []string{"zz"}}} {
		want := Aggregate(recs, opts)
		a := NewAggregator(opts)
		for i := range recs {
			a.Add(&recs[i])
		}
		got := a.Cells()
		for i := range want {
			want[i].WallMS = 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: Aggregator\n%+v\nAggregate\n%+v", opts, got, want)
		}
	}
}
