package perturbations

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
	"github.com/ambibench/ambibench/tasks"
)

func TestNewPerturbationJoinsTheGrid(t *testing.T) {
	cells, err := tabletop.Cells(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		if c.Perturbation == "distractor" {
			names = append(names, bench.SubBenchmarkName("rules", c))
		}
	}
	if len(names) != len(tasks.All())-1 {
		t.Errorf("distractor cells %v, want one per family but spatial (%d)", names, len(tasks.All())-1)
	}
	if len(names) > 0 && names[0] != "agent=rules/task=pick_place/perturb=distractor" {
		t.Errorf("first sub-benchmark %q", names[0])
	}
}

func TestNewPerturbationInTheCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := cli.Run(&out, &errOut, []string{"list"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "distractor  ") {
		t.Errorf("list does not show the new perturbation:\n%s", out.String())
	}
	out.Reset()
	if err := cli.Run(&out, &errOut, []string{"run", "--agents", "oracle,rules", "--perturbations", "none,distractor", "--episodes", "10"}); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	table := out.String()
	if !strings.Contains(table, "| distractor |") {
		t.Fatalf("run table has no distractor column:\n%s", table)
	}
	// Well-formed, the new cells are solvable: oracle and rules stay
	// perfect on them.
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| oracle |") || strings.HasPrefix(line, "| rules |") {
			if strings.Count(line, "ADA 1.00") != 2 || strings.Count(line, "SR 1.00") != 2 {
				t.Errorf("not perfect: %s", line)
			}
		}
	}
}
