package stack

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
)

// The family is in the list and in the grid, under the perturbations that
// apply to it, and its episodes can be solved: the oracle, which follows
// the reference plan through the physics, solves every one, and the rules
// agent, which reads the instruction, solves the clear ones.
func TestStackInTheCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := cli.Run(&out, &errOut, []string{"list"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "  stack ") {
		t.Errorf("list does not show stack:\n%s", out.String())
	}
	out.Reset()
	if err := cli.Run(&out, &errOut, []string{"run", "--agents", "oracle,rules", "--tasks", "stack", "--perturbations", "none,absence,multiplicity,underspecified", "--episodes", "10"}); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "| oracle |") && strings.Count(line, "SR 1.00") != 4:
			t.Errorf("the oracle is not perfect: %s", line)
		case strings.HasPrefix(line, "| rules |") && !strings.Contains(line, "| ADA 1.00"):
			t.Errorf("rules does not solve the clear episodes: %s", line)
		}
	}
}

// BenchmarkTabletop is the tabletop's Go benchmark on the new family, as
// bench's BenchmarkTabletop runs every family.
func BenchmarkTabletop(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: tabletop.New(), Seed: 1, Agents: []string{"oracle", "rules"}, Families: []string{"stack"}})
}

func TestStackInTheBenchmark(t *testing.T) {
	flag.Set("test.benchtime", "5x") // five episodes a cell: a check, not a measure
	if r := testing.Benchmark(BenchmarkTabletop); r.N == 0 {
		t.Fatal("the benchmark failed")
	}
	cells, err := tabletop.Cells([]string{"stack"}, nil)
	if err != nil || len(cells) < 4 {
		t.Fatalf("stack cells %v, %v", cells, err)
	}
	if got := bench.SubBenchmarkName("rules", cells[0]); got != "agent=rules/task=stack/perturb=none" {
		t.Errorf("first sub-benchmark %q", got)
	}
}
