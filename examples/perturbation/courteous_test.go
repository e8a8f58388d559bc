package perturbations

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
)

// The new perturbation is in the list and in the household grid, and the
// oracle, which reads the plan, still solves every game under it.
func TestCourteousInTheCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := cli.Run(&out, &errOut, []string{"list"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "  courteous") {
		t.Errorf("list does not show courteous:\n%s", out.String())
	}
	out.Reset()
	args := []string{"run", "--track", "household", "--agents", "oracle,rules", "--perturbations", "none,courteous", "--episodes", "4"}
	if err := cli.Run(&out, &errOut, args); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	table := out.String()
	if !strings.Contains(table, "| courteous |") {
		t.Fatalf("no courteous column:\n%s", table)
	}
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| oracle |") && strings.Count(line, "SR 1.00") != 2 {
			t.Errorf("the oracle is not perfect: %s", line)
		}
	}
}

// BenchmarkHousehold is the household's Go benchmark on the new cells, as
// bench's BenchmarkHousehold runs every cell.
func BenchmarkHousehold(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: household.New(), Seed: 1, Agents: []string{"oracle"}, Perturbations: []string{"courteous"}})
}

func TestCourteousInTheBenchmark(t *testing.T) {
	flag.Set("test.benchtime", "5x") // five episodes a cell: a check, not a measure
	if r := testing.Benchmark(BenchmarkHousehold); r.N == 0 {
		t.Fatal("the benchmark failed")
	}
	cells, err := household.New().Cells(nil, []string{"courteous"})
	if err != nil || len(cells) != 6 {
		t.Errorf("courteous cells %v, %v: want one per task type", cells, err)
	}
	if got := bench.SubBenchmarkName("oracle", cells[0]); got != "agent=oracle/task=pick_and_place/perturb=courteous" {
		t.Errorf("first sub-benchmark %q", got)
	}
}
