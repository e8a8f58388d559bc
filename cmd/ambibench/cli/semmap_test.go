package cli

import (
	bsemmap "github.com/ambibench/ambibench/bench/semmap"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// A dataset in the public layout, written by hand: evidence scores that
// are not probabilities, an instance whose best class is unknown (dropped),
// a queries.yaml without types (so ids set them), and a query whose truth
// is empty. Every semmap agent runs on it through --data.
func TestSemmapRunsOnAPublicLayoutDataset(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("semantic_maps/flat.json", `{"instances": {
 "obj1": {"bbox": {"center": [0.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": {"chair": 312.5, "couch": 40.0}},
 "obj2": {"bbox": {"center": [2.0, 0.5, 0.4], "size": [2.0, 0.9, 0.8]}, "n_observations": 90, "results": {"couch": 880.0, "bed": 12.0}},
 "obj3": {"bbox": {"center": [4.0, 3.0, 0.5], "size": [0.3, 0.3, 0.3]}, "n_observations": 3, "results": {"unknown": 50.0, "vase": 4.0}},
 "obj4": {"bbox": {"center": [3.0, 3.0, 0.9], "size": [0.6, 0.6, 1.8]}, "n_observations": 25, "results": {"refrigerator": 77.0}}
}}`)
	write("queries.yaml", `# hand-written
queries:
  query_01: "Is there a refrigerator?"
  query_02: "Is there a toilet?"
  query_11: "I am tired, where can I sit?"
  query_21: "Tell me something I can sit on that is not a couch"
`)
	write("responses/flat.json", `{"responses": {"query_01": ["obj4"], "query_02": [], "query_11": ["obj2", "obj1"], "query_21": ["obj1"]}}`)
	out := t.TempDir()
	names := agents.NamesFor(agents.TrackSemmap)
	stdout, stderr, err := runCLI(t, "run", "--track", "semmap", "--data", dir, "--model", "sim:perfect",
		"--agents", strings.Join(names, ","), "--out", out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "Top-1") {
		t.Errorf("the summary has no Top-k table:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(out, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := results.ReadRecords(f, "records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(names) * 4; len(recs) != want {
		t.Fatalf("%d records, want %d (every agent on every query)", len(recs), want)
	}
	for _, r := range recs {
		if r.MapObjects != 3 {
			t.Errorf("%s on %s: the map shows %d objects, want 3 (the unknown one dropped)", r.Agent, r.Query, r.MapObjects)
		}
		if r.Error != "" {
			t.Errorf("%s on %s: %s", r.Agent, r.Query, r.Error)
		}
		if r.Agent == "oracle" && !r.Top1 {
			t.Errorf("oracle on %s: answer %v, truth %v", r.Query, r.Answer, r.Truth)
		}
		if r.Query == "query_21" && r.Family != "negation" {
			t.Errorf("query_21 has type %q, want negation from its id", r.Family)
		}
	}
}

// writeFiles writes each file of files (path relative to dir: contents).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The faults a dataset was loaded with despite them (here an instance id
// its map file gives twice, of which JSON keeps the last) are printed to
// stderr and kept in the summary, so that a table made from a flawed
// dataset says so where it is read. (A truth id that its map lacks was
// one of them; it is refused now, issue 33.)
func TestSemmapDatasetWarningsAreReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"semantic_maps/flat.json": `{"instances": {
 "obj1": {"bbox": {"center": [0.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": {"couch": 12}},
 "obj1": {"bbox": {"center": [0.0, 0.0, 0.45], "size": [0.5, 0.5, 0.9]}, "n_observations": 40, "results": {"chair": 312.5}}
}}`,
		"queries.yaml":        "queries:\n  query_01: \"Is there a chair?\"\n",
		"responses/flat.json": `{"responses": {"query_01": ["obj1"]}}`,
	})
	out := t.TempDir()
	_, stderr, err := runCLI(t, "run", "--track", "semmap", "--data", dir, "--agents", "rules", "--out", out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	const want = `semantic_maps/flat.json: instance "obj1" appears 2 times; only the last is read`
	if !strings.Contains(stderr, "warning: dataset "+filepath.Base(dir)+": "+want) {
		t.Errorf("stderr %q lacks the warning %q", stderr, want)
	}
	sum, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "## Dataset warnings") || !strings.Contains(string(sum), "- "+want) {
		t.Errorf("summary.md lacks the warning:\n%s", sum)
	}
	// The built-in dataset has none, and its summary no such section.
	out2 := t.TempDir()
	if _, stderr, err := runCLI(t, "run", "--track", "semmap", "--agents", "rules", "--out", out2); err != nil || strings.Contains(stderr, "warning") {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	if sum, _ := os.ReadFile(filepath.Join(out2, "summary.md")); strings.Contains(string(sum), "Dataset warnings") {
		t.Errorf("a warnings section without warnings:\n%s", sum)
	}
}

// A semmap run plays every pair of each cell unless --episodes says
// fewer, and then the summary and stderr say how many of how many; the
// summary's table has a block of rows per input mode (golden file).
func TestSemmapEpisodesNeverDropPairsSilently(t *testing.T) {
	t.Parallel()
	all := t.TempDir()
	if _, stderr, err := runCLI(t, "run", "--track", "semmap", "--agents", "rules", "--out", all); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	d := mapqueries.Builtin(bsemmap.BuiltinSeed)
	pairs := 0
	for _, m := range d.Maps {
		pairs += len(d.Truth[m.Name])
	}
	if recs := readRecords(t, all); len(recs) != pairs {
		t.Errorf("the default ran %d records, the dataset has %d pairs", len(recs), pairs)
	}
	sum, _ := os.ReadFile(filepath.Join(all, "summary.md"))
	if !strings.Contains(string(sum), "every pair of each cell, per agent (") {
		t.Errorf("the summary does not say every pair ran:\n%s", sum)
	}

	cut := t.TempDir()
	_, stderr, err := runCLI(t, "run", "--track", "semmap", "--agents", "oracle,rules,random", "--modes", "certainty,uncertainty", "--episodes", "5", "--out", cut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	const want = "pairs per cell and agent: descriptive 5 of 80, affordance 5 of 80, negation 5 of 80 (--episodes 5; the rest not run)"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	sum, err = os.ReadFile(filepath.Join(cut, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), want) {
		t.Errorf("the summary does not say %q", want)
	}
	golden(t, "run_semmap_summary.golden", sum)
}
