package extendtest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// distractor adds a block of a colour no block has; the episode stays
// clear. It leaves spatial tasks out, where a new block could lie in the
// named direction and make the phrase match twice.
type distractor struct{}

func (distractor) Name() string                { return "distractor" }
func (distractor) Description() string         { return "an extra block of a new colour" }
func (distractor) Applies(f tasks.Family) bool { return f.Name() != "spatial" }
func (distractor) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	var used []string
	for _, o := range ep.Objects {
		if o.Class == scenes.ClassBlock {
			used = append(used, o.Color())
		}
	}
	l := scenes.LayoutOf(rng, scenes.MinSpacing, ep.TwoRobots, ep.Objects)
	if _, err := l.Add(scenes.ClassBlock, scenes.PickColors(rng, 1, used)[0], scenes.Table); err != nil {
		return perturb.ErrRedraw
	}
	ep.Objects = l.Objects()
	ep.Label = tasks.LabelNone
	return nil
}

func init() { perturb.Register(distractor{}) }

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
