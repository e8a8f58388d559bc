package oneshot

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/llmtest"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
)

var update = flag.Bool("update", false, "rewrite testdata/oneshot.txt")

// The template, rendered with fixed data, is testdata/oneshot.txt (go
// test -update rewrites it): a change to the prompt shows in review as a
// diff of the text a model reads.
func TestPromptGolden(t *testing.T) {
	got, err := oneshotPrompts.Render("oneshot.tmpl", oneshotData{Robot: "robot1", Instruction: "Put the red block in the blue bowl.", Graph: `{"nodes":[…],"edges":[…]}`})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "oneshot.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the prompt differs from %s (go test -update to accept):\n%s", path, got)
	}
}

// On the perfect simulated model the workflow solves the clear episodes
// and asks on the ambiguous ones (it cannot act on the answer, so those
// fail); on the default one it slips now and then.
func TestOneShotInTheCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"run", "--agents", "oneshot", "--model", "sim:perfect", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "20"}
	if err := cli.Run(&out, &errOut, args); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	row := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "| oneshot |") {
			row = line
		}
	}
	if !strings.Contains(row, "| ADA 1.00 [0.84, 1.00] · SR 1.00 [0.84, 1.00] (n=20) | ADA 1.00 [0.84, 1.00] · SR 0.00") {
		t.Errorf("want clear episodes solved and every absence asked about:\n%s", out.String())
	}
}

// The context the simulated model reads holds nothing the prompt does not
// show: the instruction, the robot and every node of the graph are in
// the text a real model reads.
func TestContextIsInThePrompt(t *testing.T) {
	m, err := models.Open("sim", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &llmtest.Recorder{Model: m}
	if _, err := bench.Run(context.Background(), bench.Options{Track: tabletop.New(), Seed: 1, Model: rec, Agents: []string{"oneshot"}, Episodes: 3}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(rec.Requests()) == 0 {
		t.Fatal("no model calls")
	}
	for _, req := range rec.Requests() {
		text := req.Messages[0].Text
		cc := req.Context
		for _, s := range []string{cc.Instruction, cc.Robot} {
			if !strings.Contains(text, s) {
				t.Errorf("the context's %q is not in the prompt", s)
			}
		}
		for _, n := range cc.Graph.Nodes {
			if !strings.Contains(text, n.ID) {
				t.Errorf("node %q is not in the prompt", n.ID)
			}
		}
	}
}

// BenchmarkTabletop is the tabletop's Go benchmark for the new agent, as
// bench's BenchmarkTabletop runs every agent; the model comes from
// AMBIBENCH_MODEL as there.
func BenchmarkTabletop(b *testing.B) {
	m, err := bench.BenchmarkModel()
	if err != nil {
		b.Fatal(err)
	}
	bench.Benchmark(b, bench.Options{Track: tabletop.New(), Seed: 1, Model: m, Agents: []string{"oneshot"}, Families: []string{"pick_place"}})
}

func TestOneShotInTheBenchmark(t *testing.T) {
	flag.Set("test.benchtime", "5x") // five episodes a cell: a check, not a measure
	if r := testing.Benchmark(BenchmarkTabletop); r.N == 0 {
		t.Fatal("the benchmark failed")
	}
}
