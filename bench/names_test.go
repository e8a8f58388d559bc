package bench_test

import (
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"regexp"
	"testing"
)

func TestSubBenchmarkName(t *testing.T) {
	for _, tc := range []struct {
		why   string
		agent string
		cell  bench.Cell
		want  string
	}{
		{"plain names pass through", "rules", bench.Cell{Family: "pick_place", Perturbation: "none"}, "agent=rules/task=pick_place/perturb=none"},
		{"a trailing -digits would read as GOMAXPROCS", "sgcot", bench.Cell{Family: "pick_place", Perturbation: "noise-12"}, "agent=sgcot/task=pick_place/perturb=noise_12"},
		{"slashes and spaces would split or break the key", "a/b c", bench.Cell{Family: "x y", Perturbation: "p/q"}, "agent=a_b_c/task=x_y/perturb=p_q"},
		{"model specs keep their colon", "sim:weak", bench.Cell{Family: "spatial", Perturbation: "absence"}, "agent=sim:weak/task=spatial/perturb=absence"},
	} {
		if got := bench.SubBenchmarkName(tc.agent, tc.cell); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.why, got, tc.want)
		}
	}
}

// Every real cell's name parses as benchstat expects: three key=value
// elements and no -digits at the end.
func TestSubBenchmarkNamesOfGrid(t *testing.T) {
	cells, err := tabletop.Cells(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	shape := regexp.MustCompile(`^agent=[\w.:]+/task=[\w.:]+/perturb=[\w.:]+$`)
	procs := regexp.MustCompile(`-\d+$`)
	for _, c := range cells {
		n := bench.SubBenchmarkName("rules", c)
		if !shape.MatchString(n) || procs.MatchString(n) {
			t.Errorf("bad sub-benchmark name %q", n)
		}
	}
}
