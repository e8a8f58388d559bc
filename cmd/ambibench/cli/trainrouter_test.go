package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/dyref"
)

// train-router on a small split writes the same weights twice and at any
// concurrency, says what the games gave, and run --router plays dyref
// with them.
func TestTrainRouter(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	dir := t.TempDir()
	var files [2][]byte
	for i, conc := range []string{"1", "2"} {
		out := filepath.Join(dir, "router"+conc+".json")
		stdout, stderr, err := runCLI(t, "train-router", "--games", "90", "--epochs", "50", "--concurrency", conc, "--out", out)
		if err != nil {
			t.Fatalf("train-router: %v\n%s", err, stderr)
		}
		if !strings.Contains(stdout, "games 90, failed at trial 1 ") || !strings.Contains(stdout, "| key_rules+lesson |") || !strings.Contains(stdout, "wrote "+out) {
			t.Errorf("summary:\n%s", stdout)
		}
		if files[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("the weights depend on the concurrency")
	}
	if bytes.Contains(files[0], []byte("ambiguity")) {
		t.Error("the default router chooses the ambiguity tool; dyref's are the paper's three")
	}
	// --ambiguity trains over the four tools, dyref-ambiguity's router.
	four := filepath.Join(dir, "router-ambiguity.json")
	stdout, stderr, err := runCLI(t, "train-router", "--ambiguity", "--games", "90", "--epochs", "50", "--out", four)
	if err != nil || !strings.Contains(stdout, "| experience+ambiguity |") {
		t.Fatalf("train-router --ambiguity: %v\n%s%s", err, stdout, stderr)
	}
	if data, _ := os.ReadFile(four); !bytes.Contains(data, []byte(`"tools": ["key_rules", "experience", "lesson", "ambiguity"]`)) {
		t.Errorf("--ambiguity wrote:\n%.300s", data)
	}
	// Without --out the weights go to stdout and the summary to stderr.
	stdout, stderr, err = runCLI(t, "train-router", "--games", "90", "--epochs", "50")
	if err != nil || stdout != string(files[0]) || !strings.Contains(stderr, "games 90") {
		t.Errorf("to stdout: error %v, weights equal %v, stderr %q", err, stdout == string(files[0]), stderr)
	}
	run := filepath.Join(dir, "run")
	stdout, stderr, err = runCLI(t, "run", "--track", "household", "--agents", "dyref,reflexion", "--tasks", "pick_heat_then_place",
		"--perturbations", "none", "--router", filepath.Join(dir, "router1.json"), "--out", run)
	if err != nil || !strings.Contains(stdout, "| dyref |") {
		t.Errorf("run --router: %v\n%s%s", err, stdout, stderr)
	}
	// dyref's records name the router; reflexion's, which uses none, not.
	recs, err := os.ReadFile(filepath.Join(run, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(recs), `"agent":"dyref","model":"sim; router `) || strings.Contains(string(recs), `"agent":"reflexion","model":"sim; router`) {
		t.Errorf("records do not name the router where they should:\n%.600s", recs)
	}
}

func TestTrainRouterErrors(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "dyref-router", "version": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A well-formed router that reads two features, not the 19 factors:
	// refused before the run, not a panic in the middle of it.
	narrow := filepath.Join(t.TempDir(), "narrow.json")
	r, err := dyref.Train([]dyref.Example{{X: []float64{0, 1}, Label: 3}, {X: []float64{1, 0.5}, Label: 12}},
		dyref.TrainOptions{Hidden: 1, Epochs: 5, LearningRate: 0.01, Seed: 1, Tools: len(dyref.AllTools)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := r.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(narrow, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The shipped router with one weight of 1e308: finite, so it was
	// read, and the router routed by NaN (issue 33).
	shipped, err := os.ReadFile(filepath.Join("..", "..", "..", "agents", "dyref", "router.json"))
	if err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(t.TempDir(), "huge.json")
	w1 := strings.Index(string(shipped), `"w1": [`)
	first := w1 + strings.IndexByte(string(shipped[w1:]), '\n') + 5 // the first number of w1's first row
	end := first + strings.IndexByte(string(shipped[first:]), ',')
	if err := os.WriteFile(huge, append(append(append([]byte{}, shipped[:first]...), "1e308"...), shipped[end:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		why  string
		args []string
		want string
	}{
		{"a router with a weight of 1e308 ran, routing by NaN (issue 33)", []string{"run", "--track", "household", "--agents", "dyref", "--router", huge},
			"run: --router: " + huge + ": w1[0]: want a number from -1e+06 to 1e+06, have 1e+308"},
		{"--concurrency 0 trained as if it were 1 (issue 33)", []string{"train-router", "--concurrency", "0"}, "train-router: --concurrency 0: must be at least 1"},
		{"an infinite --alpha wrote \"+Inf\", which is not JSON (issue 33)", []string{"train-router", "--alpha", "Inf"}, "train-router: --alpha +Inf: want a number from 0 to 1e+06"},
		{"an --alpha past the bound run --router reads", []string{"train-router", "--alpha", "1e308"}, "train-router: --alpha 1e+308: want a number from 0 to 1e+06"},
		{"NaN --alpha", []string{"train-router", "--alpha", "NaN"}, "train-router: --alpha NaN: want a number from 0 to 1e+06"},
		{"sim: with nothing after it played the default profile under another name", []string{"train-router", "--model", "sim:"}, `train-router: --model: model spec "sim:": nothing after "sim:"`},
		{"a learning rate that drives the weights past what run --router reads: refused before the file is written", []string{"train-router", "--games", "40", "--lr", "1e10"},
			"train-router: run --router would refuse the weights trained (a smaller --lr, or more --games?): the trained router: "},
		{"a router file of the wrong width", []string{"run", "--track", "household", "--agents", "dyref", "--router", narrow}, "run: --router: " + narrow + ": inputs: want 19, the complexity factors (dependency, "},
		{"no games", []string{"train-router", "--games", "0"}, "train-router: --games 0: must be at least 1"},
		{"an unknown grammar", []string{"train-router", "--grammar", "v9"}, `train-router: --grammar "v9": want v0.3 or v0.4`},
		{"a stray argument", []string{"train-router", "extra"}, `train-router: unexpected arguments ["extra"]`},
		{"an unknown model", []string{"train-router", "--model", "nope:x", "--games", "6"}, "train-router: --model: "},
		{"a router file of another version", []string{"run", "--track", "household", "--agents", "dyref", "--router", bad}, "run: --router: " + bad + ": version: unknown version 7"},
		{"no router file", []string{"run", "--track", "household", "--agents", "dyref", "--router", bad + ".missing"}, "run: --router: open " + bad + ".missing"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.why, err, c.want)
		}
	}
	stdout, _, err := runCLI(t, "train-router", "--help")
	if err != nil || !strings.Contains(stdout, "Usage: ambibench train-router") || !strings.Contains(stdout, "-alpha") {
		t.Errorf("--help: %v\n%s", err, stdout)
	}
}
