package bench_test

import (
	"regexp"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
)

func TestSubBenchmarkName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why   string
		agent string
		cell  bench.Cell
		want  string
	}{
		{"plain names pass through", "rules", bench.Cell{Family: "pick_place", Perturbation: "none"}, "agent=rules/task=pick_place/perturb=none"},
		{"the CLI's hyphens are kept, so -bench 'agent=inner-monologue/' matches", "inner-monologue", bench.Cell{Family: "spatial", Perturbation: "scene_graph_noise"}, "agent=inner-monologue/task=spatial/perturb=scene_graph_noise"},
		{"an ablation keeps its full CLI name", "sgcot-full-graph", bench.Cell{Family: "pick_place", Perturbation: "none"}, "agent=sgcot-full-graph/task=pick_place/perturb=none"},
		{"a trailing -digits would read as GOMAXPROCS: a '_' is appended", "sgcot", bench.Cell{Family: "pick_place", Perturbation: "noise-12"}, "agent=sgcot/task=pick_place/perturb=noise-12_"},
		{"-digits is escaped in any position, so a value reads the same wherever it stands", "agent-2", bench.Cell{Family: "f-0", Perturbation: "none"}, "agent=agent-2_/task=f-0_/perturb=none"},
		{"digits after a letter or an underscore are no procs suffix", "gpt4", bench.Cell{Family: "f_2", Perturbation: "x-2a"}, "agent=gpt4/task=f_2/perturb=x-2a"},
		{"a lone trailing hyphen is no procs suffix", "a-", bench.Cell{Family: "x", Perturbation: "y"}, "agent=a-/task=x/perturb=y"},
		{"slashes and spaces would split or break the key", "a/b c", bench.Cell{Family: "x y", Perturbation: "p/q"}, "agent=a_b_c/task=x_y/perturb=p_q"},
		{"'=' would make a second key=value inside a value", "a=b", bench.Cell{Family: "x", Perturbation: "y"}, "agent=a_b/task=x/perturb=y"},
		{"a slash before -digits is replaced first, then the suffix is escaped", "a/b-3", bench.Cell{Family: "x", Perturbation: "y"}, "agent=a_b-3_/task=x/perturb=y"},
		{"model specs keep their colon", "sim:weak", bench.Cell{Family: "spatial", Perturbation: "absence"}, "agent=sim:weak/task=spatial/perturb=absence"},
		{"non-ASCII letters are replaced, one '_' per rune", "é", bench.Cell{Family: "x", Perturbation: "y"}, "agent=_/task=x/perturb=y"},
	} {
		if got := bench.SubBenchmarkName(tc.agent, tc.cell); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.why, got, tc.want)
		}
	}
}

// Every registered agent's and every cell's name, on the three tracks, is the CLI's own,
// unchanged, and parses as benchstat expects: three key=value elements
// and no -digits at the end.
func TestSubBenchmarkNamesOfGrid(t *testing.T) {
	t.Parallel()
	var cells []bench.Cell
	for _, tr := range []bench.Track{tabletop.New(), household.New(), semmap.New()} {
		cs, err := tr.Cells(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		cells = append(cells, cs...)
	}
	shape := regexp.MustCompile(`^agent=[\w.:-]+/task=[\w.:-]+/perturb=[\w.:-]+$`)
	procs := regexp.MustCompile(`-\d+$`)
	for _, agent := range agents.Names() {
		if got := bench.SanitizeName(agent); got != agent {
			t.Errorf("agent %q is named %q in the benchmarks", agent, got)
		}
	}
	for _, c := range cells {
		for _, v := range []string{c.Family, c.Perturbation} {
			if got := bench.SanitizeName(v); got != v {
				t.Errorf("cell value %q is named %q in the benchmarks", v, got)
			}
		}
		n := bench.SubBenchmarkName("inner-monologue", c)
		if !shape.MatchString(n) || procs.MatchString(n) {
			t.Errorf("bad sub-benchmark name %q", n)
		}
	}
}
