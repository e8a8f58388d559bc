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

	"go.yaml.in/yaml/v3"
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

// The Kubernetes recipe runs as written: its image is the repository's
// Dockerfile, a multi-stage build of the command on go.mod's Go, loaded
// into the cluster rather than pulled (imagePullPolicy IfNotPresent or
// Never), running as the user the pods' fsGroup gives the volume to,
// holding the baseline the merge Job compares with; and the recipe says
// what storage its claim needs.
func TestK8sRecipeImage(t *testing.T) {
	t.Parallel()
	dockerfile, err := os.ReadFile("../../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goLine == nil {
		t.Fatal("go.mod has no go line")
	}
	df := string(dockerfile)
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(df, -1)
	if len(froms) < 2 || froms[0][1] != "golang:"+string(goLine[1]) {
		t.Errorf("Dockerfile: stages %v; want a build stage FROM golang:%s and a run stage", froms, goLine[1])
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "./cmd/ambibench", "COPY --from=build /out/ambibench /usr/local/bin/ambibench", "COPY third_party/cp ", "ENTRYPOINT [\"ambibench\"]"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile has no %q", want)
		}
	}
	baselines := regexp.MustCompile(`(?m)^COPY results/baselines (\S+)$`).FindStringSubmatch(df)
	user := regexp.MustCompile(`(?m)^USER (\d+)$`).FindStringSubmatch(df)
	tag := regexp.MustCompile(`docker build -t (\S+) \.`).FindStringSubmatch(df)
	if baselines == nil || user == nil || tag == nil {
		t.Fatalf("Dockerfile: baselines %v, user %v, tag %v", baselines, user, tag)
	}

	data, err := os.ReadFile(k8sRecipe)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	containers, claims := 0, 0
	for {
		var doc struct {
			Kind string
			Spec struct {
				AccessModes []string `yaml:"accessModes"`
				Template    struct {
					Spec struct {
						SecurityContext struct {
							FSGroup int `yaml:"fsGroup"`
						} `yaml:"securityContext"`
						Containers []struct {
							Name, Image     string
							ImagePullPolicy string `yaml:"imagePullPolicy"`
							Env             []struct{ Name, Value string }
						}
					}
				}
			}
		}
		if err := dec.Decode(&doc); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("%s: %v", k8sRecipe, err)
			}
			break
		}
		switch doc.Kind {
		case "PersistentVolumeClaim":
			claims++
		case "Job":
			if got := strconv.Itoa(doc.Spec.Template.Spec.SecurityContext.FSGroup); got != user[1] {
				t.Errorf("a Job's fsGroup is %s, the image's user %s: the pods could not write the volume", got, user[1])
			}
			for _, c := range doc.Spec.Template.Spec.Containers {
				containers++
				if c.Image != tag[1] {
					t.Errorf("container %s runs %s, the Dockerfile builds %s", c.Name, c.Image, tag[1])
				}
				if c.ImagePullPolicy != "IfNotPresent" && c.ImagePullPolicy != "Never" {
					t.Errorf("container %s: imagePullPolicy %q; a locally built image needs IfNotPresent or Never", c.Name, c.ImagePullPolicy)
				}
				for _, e := range c.Env {
					if e.Name != "BASELINE" {
						continue
					}
					rel, ok := strings.CutPrefix(e.Value, baselines[1]+"/")
					if !ok {
						t.Errorf("BASELINE %s is not under the image's %s", e.Value, baselines[1])
					} else if _, err := os.Stat(filepath.Join("../../../results/baselines", rel, "run.json")); err != nil {
						t.Errorf("BASELINE %s: %v", e.Value, err)
					}
				}
			}
		}
	}
	if containers != 2 || claims != 1 {
		t.Errorf("%d containers and %d claims, want the shards', the merge's and one claim", containers, claims)
	}
	for _, want := range []string{"storageClassName", "ReadWriteMany", "ReadWriteOnce"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s does not say the storage it needs (no %q)", k8sRecipe, want)
		}
	}
}

// recipeSection is the text of the README's section titled title, up to
// the next section of its level.
func recipeSection(t *testing.T, readme, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", title)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// fenced are the code blocks of text fenced as lang, in order.
func fenced(text, lang string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)\n```"+lang+"\n(.*?)\n```").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+"\n")
	}
	return out
}

// linkLine is the import a recipe adds to cmd/ambibench/cli/extensions.go,
// and the package path it names.
func linkLine(t *testing.T, section string) (line, path string) {
	t.Helper()
	for _, block := range fenced(section, "go") {
		if m := regexp.MustCompile(`^import _ "([^"]+)"\n$`).FindStringSubmatch(block); m != nil {
			return strings.TrimSpace(block), m[1]
		}
	}
	t.Fatal("the recipe gives no line for cmd/ambibench/cli/extensions.go")
	return "", ""
}

// recipeCheck is a test file put beside the command's tests: with the
// recipes' packages linked, each extension is listed and plays as its
// recipe says.
const recipeCheck = `package cli

import (
	"strings"
	"testing"
)

func TestRecipeExtensionsPlay(t *testing.T) {
	out, _, err := runCLI(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n  jars ", "\n  stack ", "reworded as a polite request", "\n  oneshot ", "AGENTS (jars)\n  counter "} {
		if !strings.Contains(out, want) {
			t.Errorf("list has no %q:\n%s", want, out)
		}
	}
	for _, tc := range []struct {
		what string
		args []string
		row  string // a row of the printed table
		want int    // times "SR 1.00" is in it
	}{
		{"the perturbation", []string{"run", "--track", "household", "--agents", "oracle", "--perturbations", "none,courteous", "--episodes", "2"}, "| oracle |", 2},
		{"the family", []string{"run", "--agents", "oracle", "--tasks", "stack", "--perturbations", "none,absence,multiplicity,underspecified", "--episodes", "3"}, "| oracle |", 4},
		{"the agent", []string{"run", "--agents", "oneshot", "--model", "sim:perfect", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "3"}, "| oneshot |", 1},
		{"the track", []string{"run", "--track", "jars", "--agents", "all", "--marbles", "4", "--episodes", "3"}, "| counter |", 2},
	} {
		out, errOut, err := runCLI(t, tc.args...)
		if err != nil {
			t.Errorf("%s: %v\n%s", tc.what, err, errOut)
			continue
		}
		found := false
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, tc.row) {
				found = true
				if n := strings.Count(line, "SR 1.00"); n != tc.want {
					t.Errorf("%s: %d cells at SR 1.00, want %d: %s", tc.what, n, tc.want, line)
				}
			}
		}
		if !found {
			t.Errorf("%s: no row %q:\n%s", tc.what, tc.row, out)
		}
		if tc.what == "the track" && strings.Contains(out, "oracle") {
			t.Errorf("the reference agents claim the new track:\n%s", out)
		}
	}
}
`
