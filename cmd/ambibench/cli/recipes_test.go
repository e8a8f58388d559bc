package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The recipes in deploy/ that run a grid as shards.
const (
	actionsRecipe = "../../../deploy/github-actions.yml"
	k8sRecipe     = "../../../deploy/k8s-indexed-job.yaml"
)

// recipeArgs runs a recipe's shell command with ambibench replaced by a
// function that prints its arguments, one a line, and returns them.
func recipeArgs(script string, env ...string) ([]string, error) {
	cmd := exec.Command("sh", "-c", "ambibench() { printf '%s\\n' \"$@\"; }\n"+script)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"), nil
}

// checkShards checks the ambibench commands a recipe runs, one per shard
// it starts: each a run with a --shard the CLI parses and an --out of its
// own, the same command otherwise, and shards 1..n each exactly once, n
// being the number of commands.
func checkShards(cmds [][]string) error {
	n := len(cmds)
	seen := map[int]int{}
	outs := map[string]bool{}
	var common []string
	for c, args := range cmds {
		if len(args) == 0 || args[0] != "run" {
			return fmt.Errorf("command %d is %q, not ambibench run", c, args)
		}
		var shard, out string
		var rest []string
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "--shard", "--out":
				if i+1 == len(args) {
					return fmt.Errorf("command %q: %s without a value", args, args[i])
				}
				if args[i] == "--shard" {
					shard = args[i+1]
				} else {
					out = args[i+1]
				}
				i++
			default:
				rest = append(rest, args[i])
			}
		}
		s, err := parseShardFlag(shard)
		if err != nil {
			return fmt.Errorf("command %q: %v", args, err)
		}
		if s.Count != n {
			return fmt.Errorf("command %q runs shard %v, but the recipe starts %d shards", args, s, n)
		}
		seen[s.Index]++
		if out == "" || outs[out] {
			return fmt.Errorf("command %q: --out %q is missing or another shard's", args, out)
		}
		outs[out] = true
		if c == 0 {
			common = rest
		} else if !slices.Equal(rest, common) {
			return fmt.Errorf("command %q runs another grid than %q", rest, common)
		}
	}
	for i := 1; i <= n; i++ {
		if seen[i] != 1 {
			return fmt.Errorf("shard %d/%d is run %d times, want once", i, n, seen[i])
		}
	}
	if n < 2 {
		return fmt.Errorf("%d shards", n)
	}
	return nil
}

// actionsCommands are the ambibench commands of the GitHub Actions
// recipe's matrix jobs, one per matrix entry.
func actionsCommands(text string) ([][]string, error) {
	m := regexp.MustCompile(`(?m)^\s+shard:\s*\[([^\]]*)\]\s*$`).FindStringSubmatch(text)
	run := regexp.MustCompile(`(?m)^\s+run:\s*(ambibench run .*)$`).FindStringSubmatch(text)
	env := regexp.MustCompile(`(?m)^\s+AMBIBENCH_ARGS:\s*(.*)$`).FindStringSubmatch(text)
	if m == nil || run == nil || env == nil {
		return nil, fmt.Errorf("no matrix of shards, ambibench run step or AMBIBENCH_ARGS")
	}
	var cmds [][]string
	for _, v := range strings.Split(m[1], ",") {
		script := strings.ReplaceAll(run[1], "${{ matrix.shard }}", strings.TrimSpace(v))
		args, err := recipeArgs(script, "AMBIBENCH_ARGS="+env[1])
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, args)
	}
	return cmds, nil
}

// k8sCommands are the ambibench commands of the Indexed Job's pods, one
// per completion index.
func k8sCommands(text string) ([][]string, error) {
	mode := regexp.MustCompile(`(?m)^\s+completionMode:\s*Indexed\s*$`).MatchString(text)
	comp := regexp.MustCompile(`(?m)^\s+completions:\s*(\d+)\s*$`).FindStringSubmatch(text)
	par := regexp.MustCompile(`(?m)^\s+parallelism:\s*(\d+)\s*$`).FindStringSubmatch(text)
	env := regexp.MustCompile(`name: AMBIBENCH_ARGS\n\s+value:\s*(.*)\n`).FindStringSubmatch(text)
	if !mode || comp == nil || par == nil || env == nil {
		return nil, fmt.Errorf("no Indexed Job with completions, parallelism and AMBIBENCH_ARGS")
	}
	if comp[1] != par[1] {
		return nil, fmt.Errorf("completions %s, parallelism %s: the shards would not run at once", comp[1], par[1])
	}
	// The first block scalar ("- |") is the shard pods' script.
	lines := strings.Split(text, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "- |" })
	if start < 0 {
		return nil, fmt.Errorf("no script")
	}
	indent := len(lines[start]) - len(strings.TrimLeft(lines[start], " "))
	var script []string
	for _, l := range lines[start+1:] {
		if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) <= indent {
			break
		}
		script = append(script, strings.TrimSpace(l))
	}
	n, _ := strconv.Atoi(comp[1])
	var cmds [][]string
	for i := range n {
		args, err := recipeArgs(strings.Join(script, "\n"), "AMBIBENCH_ARGS="+env[1], fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, args)
	}
	return cmds, nil
}

// The recipes run every shard exactly once, as the CLI reads --shard, and
// end with merge, report and compare; a recipe that skips or repeats a
// shard fails the check.
func TestRecipesShardArithmetic(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the recipes' commands are sh")
	}
	for _, tc := range []struct {
		path     string
		commands func(string) ([][]string, error)
		broken   [][2]string // edits that must fail the check
	}{
		{actionsRecipe, actionsCommands, [][2]string{
			{"shard: [1, 2, 3, 4]", "shard: [1, 2, 2, 4]"},
			{"shard: [1, 2, 3, 4]", "shard: [0, 1, 2, 3]"},
			{"shard: [1, 2, 3, 4]", "shard: [1, 2, 3]"},
			{"--shard ${{ matrix.shard }}/4", "--shard ${{ matrix.shard }}/5"},
			{"--out shard-${{ matrix.shard }}", "--out shard"},
		}},
		{k8sRecipe, k8sCommands, [][2]string{
			{"completions: 4", "completions: 5"},
			{"$((JOB_COMPLETION_INDEX + 1))", "$JOB_COMPLETION_INDEX"},
			{"$((JOB_COMPLETION_INDEX + 1))", "$((JOB_COMPLETION_INDEX % 3 + 1))"},
			{`--out "/runs/shard-$SHARD"`, `--out /runs/shard`},
		}},
	} {
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		cmds, err := tc.commands(text)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if err := checkShards(cmds); err != nil {
			t.Errorf("%s: %v", tc.path, err)
		}
		for _, want := range []string{"ambibench merge --out ", "ambibench report ", "ambibench compare "} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: no %q", tc.path, want)
			}
		}
		for _, edit := range tc.broken {
			if !strings.Contains(text, edit[0]) {
				t.Fatalf("%s: no %q to break", tc.path, edit[0])
			}
			cmds, err := tc.commands(strings.Replace(text, edit[0], edit[1], 1))
			if err == nil {
				err = checkShards(cmds)
			}
			if err == nil {
				t.Errorf("%s with %q for %q passes the check", filepath.Base(tc.path), edit[1], edit[0])
			}
		}
	}
}
