package repocheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// importRule is one rule of docs/packages.md ("Who imports whom"): the
// packages it governs and what of the project they may import. A pattern is
// a package path relative to the module, or such a path followed by "/..."
// for it and every package under it. The first rule whose pkgs matches a
// package governs it; a package no rule matches (the command, the examples,
// this package) may import any package of the project but for what
// importerRules forbid.
type importRule struct {
	pkgs string
	may  []string
	rule string // as docs/packages.md states it
}

// The rules, most specific first.
var importRules = []importRule{
	{"scenes", nil, "scenes imports no package of the project"},
	{"scenes/camera", []string{"scenes"}, "scenes/camera imports scenes only"},
	{"sim", nil, "sim imports nothing"},
	{"sim/physics", []string{"scenes"}, "sim/physics and sim/textworld import scenes only"},
	{"sim/textworld", []string{"scenes"}, "sim/physics and sim/textworld import scenes only"},
	{"tasks", []string{"scenes"}, "tasks and tasks/mapqueries import scenes only"},
	{"tasks/mapqueries", []string{"scenes"}, "tasks and tasks/mapqueries import scenes only"},
	{"tasks/alfworld", []string{"scenes", "tasks"}, "tasks/alfworld imports scenes and tasks"},
	{"perturb", []string{"scenes", "tasks", "tasks/alfworld"}, "perturb imports scenes, tasks and tasks/alfworld"},
	{"agents", []string{"scenes", "agents/llm"}, "agents, the contracts, imports scenes and agents/llm only: no workflow"},
	{"agents/prompt", nil, "agents/prompt imports none of the project"},
	{"agents/...", []string{"scenes", "agents/..."}, "agents and its sub-packages import scenes and packages under agents/ only"},
	{"results", nil, resultsRule},
	{"results/internal/recordtest", []string{"results"}, resultsRule},
	{"results/stats", []string{"results", "results/internal/recordtest"}, resultsRule},
	{"results/compare", []string{"results", "results/stats", "results/internal/recordtest"}, resultsRule},
	{"results/reports", []string{"results", "results/stats", "results/internal/recordtest"}, resultsRule},
	{"results/view", []string{"results", "agents/llm", "agents/llm/imagefile", "agents/llm/middleware"},
		"results/view imports results and, to read transcripts and their images as the model layer writes them, agents/llm, agents/llm/imagefile and agents/llm/middleware; the report's and the comparison's Markdown are handed to it"},
	{"results/...", nil, resultsRule}, // a results package the rules do not place yet
	{"bench", []string{"agents", "agents/llm", "agents/llm/cassette", "agents/llm/models", "agents/prompt", "results/..."},
		"bench itself imports only agents, agents/llm, agents/llm/cassette, agents/llm/models, agents/prompt and the results packages"},
	{"bench/tabletop", []string{"bench", "agents", "agents/llm/...", "results/...",
		"scenes", "scenes/camera", "sim/physics", "tasks", "perturb", "agents/tabletop", "agents/grounding", "agents/program", "agents/reference"},
		"bench/tabletop adds scenes, scenes/camera, sim/physics, tasks, perturb and the tabletop's agents to what bench imports"},
	{"bench/household", []string{"bench", "agents", "agents/llm/...", "results/...",
		"sim/textworld", "tasks", "tasks/alfworld", "perturb", "agents/household", "agents/housework", "agents/dyref", "agents/reference"},
		"bench/household adds sim/textworld, tasks, tasks/alfworld, perturb and the household's agents to what bench imports"},
	{"bench/semmap", []string{"bench", "agents", "agents/llm/...", "results/...",
		"scenes", "tasks/mapqueries", "agents/semmap", "agents/reference"},
		"bench/semmap adds scenes, tasks/mapqueries and the semmap agents to what bench imports"},
	{"bench/tracks", []string{"bench", "bench/tabletop", "bench/household", "bench/semmap"},
		"bench/tracks registers the three built-in tracks"},
}

// resultsRule is the rule of the results packages: they stand apart from
// the rest of the project, and import one another in one direction only
// (results, then results/stats, then results/compare and results/reports).
const resultsRule = "the results packages import no package of the project but one another: results none, results/stats results, results/compare and results/reports results and results/stats"

// importerRule says who may import a package: the rule of the harness,
// which only the command, the tracks and a track of one's own build on.
type importerRule struct {
	pkgs      string
	importers []string
	rule      string
}

var importerRules = []importerRule{
	{"internal/fma", nil, "internal/fma is for tests only: nothing the suite computes depends on how its build rounds"},
	{"bench/...", []string{"bench/...", "cmd/ambibench/cli", "examples/track"},
		"bench is imported only by the packages under bench/, cmd/ambibench/cli and examples/track, and by tests"},
}

// testException lets one test file import what its package may not: the
// exceptions docs/packages.md lists, each of them a test that plays real
// episodes on an engine the package itself does not import.
type testException struct {
	file string // relative to the repository's root
	may  []string
	why  string
}

var testExceptions = []testException{
	{"perturb/properties_test.go", []string{"sim/physics", "sim/textworld"},
		"the reference solution must solve the cells a perturbation applies to"},
	{"perturb/answer_seen_test.go", []string{"agents/grounding"},
		"the user's answer by place must be one the task grammar reads and resolves to the object meant"},
	{"tasks/alfworld/determinism_test.go", []string{"sim/textworld"}, "the games are played"},
	{"tasks/alfworld/expert_test.go", []string{"sim/textworld"}, "the expert's plans are played"},
	{"tasks/alfworld/gamefile_test.go", []string{"sim/textworld", "perturb"},
		"every registered perturbation's games must round-trip and play"},
	{"tasks/alfworld/gamefile_fuzz_test.go", []string{"sim/textworld", "perturb"},
		"every registered perturbation's games must round-trip and play"},
	{"agents/housework/play_test.go", []string{"sim/textworld", "tasks", "tasks/alfworld"}, "the planner plays real games"},
	{"agents/housework/planner_test.go", []string{"sim/textworld", "tasks", "tasks/alfworld"}, "the planner plays real games"},
	{"agents/household/decision_bench_test.go", []string{"sim/textworld", "tasks/alfworld"}, "a decision timed in a real game"},
	{"scenes/semmap_query_bench_test.go", []string{"tasks/mapqueries"}, "the built-in dataset's generator makes the maps resolved"},
	{"agents/llm/simmodel/household_test.go", []string{"sim/textworld", "tasks", "tasks/alfworld"}, "the simulated model plays real games"},
	{"agents/llm/simmodel/household_toolkit_test.go", []string{"sim/textworld", "tasks", "tasks/alfworld"}, "the simulated model plays real games"},
	{"agents/reference/household_test.go", []string{"sim/textworld", "tasks/alfworld"}, "the reference agents play real games"},
	{"agents/household/examples_test.go", []string{"sim/textworld", "tasks/alfworld"},
		"the prompts' solved examples are replayed in real games"},
	{"agents/household/reflect_prompt_test.go", []string{"sim/textworld", "tasks/alfworld"},
		"the reflection prompt is rendered from a real game's trial"},
	{"scenes/semmap_wording_test.go", []string{"tasks/mapqueries"}, "the reading is scored on the built-in dataset's two wordings"},
}

// testTreeExceptions let every test file of a package tree import more than
// the package: the tests of bench are the harness's tests end to end (the
// built-in tracks, the backends' HTTP bodies, the command that replays the
// baselines), and the examples' tests run a user's package through the
// command and the track it extends.
var testTreeExceptions = []treeException{
	{"bench", []string{"..."}, "bench's tests play the built-in tracks through every layer"},
	{"examples/...", []string{"..."}, "an example's tests run it through the command and the track it extends, as a user's package would"},
	{"...", []string{"internal/fma"}, "any test may ask whether the build fuses multiply-adds, to hold a float bit for bit where it does not"},
}

// treeException lets the test files of the packages pkgs matches import
// what may matches.
type treeException struct {
	pkgs string
	may  []string
	why  string
}

// match reports whether the package path p matches pattern: a path, a path
// followed by "/...", or "..." for every package.
func match(pattern, p string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

func matchAny(patterns []string, p string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool { return match(pat, p) })
}

// violation is a broken rule, as the test prints it.
type violation struct {
	file, pkg, imp, rule string
}

func (v violation) String() string {
	return fmt.Sprintf("%s: package %s imports %s, against the rule %q (docs/packages.md)", v.file, v.pkg, v.imp, v.rule)
}

// checkImports applies the rules to the packages and returns every
// violation, in file order.
func checkImports(pkgs []pkg) []violation {
	var out []violation
	for _, p := range pkgs {
		var rule *importRule
		for i := range importRules {
			if match(importRules[i].pkgs, p.path) {
				rule = &importRules[i]
				break
			}
		}
		for _, f := range p.files {
			for _, imp := range projectImports(f.file) {
				if imp == p.path {
					continue // an external test package imports the package it tests
				}
				if f.test && excepted(f.path, p.path, imp) {
					continue
				}
				if rule != nil && !matchAny(rule.may, imp) {
					out = append(out, violation{f.path, name(p.path), name(imp), rule.rule})
					continue
				}
				if f.test {
					continue // importerRules hold for non-test files
				}
				for _, r := range importerRules {
					if match(r.pkgs, imp) && !matchAny(r.importers, p.path) {
						out = append(out, violation{f.path, name(p.path), name(imp), r.rule})
					}
				}
			}
		}
	}
	return out
}

func excepted(file, pkgPath, imp string) bool {
	for _, e := range testExceptions {
		if e.file == file && matchAny(e.may, imp) {
			return true
		}
	}
	for _, e := range testTreeExceptions {
		if match(e.pkgs, pkgPath) && matchAny(e.may, imp) {
			return true
		}
	}
	return false
}

func name(p string) string {
	if p == "" {
		return module
	}
	return p
}

func TestImportRules(t *testing.T) {
	for _, v := range checkImports(packages(t)) {
		t.Error(v)
	}
}

// TestImportRulesCatch checks that the rules catch a wrong import, in a
// source file and in a test file, and let an excepted one through: a rule
// that matches nothing would pass TestImportRules too.
func TestImportRulesCatch(t *testing.T) {
	for _, tc := range []struct {
		why  string
		pkg  string
		file string
		src  string
		want string // the violation's text, "" for none
	}{
		{"the world may not import the agents", "sim/physics", "sim/physics/bad.go",
			`package tabletop; import _ "github.com/ambibench/ambibench/agents"`,
			`sim/physics/bad.go: package sim/physics imports agents, against the rule "sim/physics and sim/textworld import scenes only" (docs/packages.md)`},
		{"an agent may not import the harness", "agents/tabletop", "agents/tabletop/bad.go",
			`package tabletop; import _ "github.com/ambibench/ambibench/bench"`,
			`agents/tabletop/bad.go: package agents/tabletop imports bench, against the rule "agents and its sub-packages import scenes and packages under agents/ only" (docs/packages.md)`},
		{"a test file is held to its package's rule", "results", "results/bad_test.go",
			`package results; import _ "github.com/ambibench/ambibench/scenes"`,
			`results/bad_test.go: package results imports scenes, against the rule "` + resultsRule + `" (docs/packages.md)`},
		{"the results packages import one another in one direction", "results/stats", "results/stats/bad.go",
			`package stats; import _ "github.com/ambibench/ambibench/results/reports"`,
			`results/stats/bad.go: package results/stats imports results/reports, against the rule "` + resultsRule + `" (docs/packages.md)`},
		{"the report may read the statistics", "results/reports", "results/reports/ok.go",
			`package reports; import _ "github.com/ambibench/ambibench/results/stats"`, ""},
		{"a listed exception is let through", "perturb", "perturb/properties_test.go",
			`package perturb; import _ "github.com/ambibench/ambibench/sim/textworld"`, ""},
		{"an exception is for its file only", "perturb", "perturb/other_test.go",
			`package perturb; import _ "github.com/ambibench/ambibench/sim/textworld"`,
			`perturb/other_test.go: package perturb imports sim/textworld, against the rule "perturb imports scenes, tasks and tasks/alfworld" (docs/packages.md)`},
		{"one track may not import another's world", "bench/semmap", "bench/semmap/bad.go",
			`package semmap; import _ "github.com/ambibench/ambibench/sim/physics"`,
			`bench/semmap/bad.go: package bench/semmap imports sim/physics, against the rule "bench/semmap adds scenes, tasks/mapqueries and the semmap agents to what bench imports" (docs/packages.md)`},
		{"a package no rule governs may still not import the harness", "examples/agent", "examples/agent/bad.go",
			`package oneshot; import _ "github.com/ambibench/ambibench/bench"`,
			`examples/agent/bad.go: package examples/agent imports bench, against the rule "bench is imported only by the packages under bench/, cmd/ambibench/cli and examples/track, and by tests" (docs/packages.md)`},
		{"the command may import the harness", "cmd/ambibench/cli", "cmd/ambibench/cli/ok.go",
			`package cli; import _ "github.com/ambibench/ambibench/bench"`, ""},
		{"any test may ask how the build rounds, even where its package imports nothing", "scenes", "scenes/ok_test.go",
			`package scenes; import _ "github.com/ambibench/ambibench/internal/fma"`, ""},
		{"no code but a test may: the records must not depend on it", "cmd/ambibench/cli", "cmd/ambibench/cli/bad.go",
			`package cli; import _ "github.com/ambibench/ambibench/internal/fma"`,
			`cmd/ambibench/cli/bad.go: package cmd/ambibench/cli imports internal/fma, against the rule "internal/fma is for tests only: nothing the suite computes depends on how its build rounds" (docs/packages.md)`},
	} {
		f := parseSource(t, tc.src)
		got := checkImports([]pkg{{path: tc.pkg, files: []sourceFile{{path: tc.file, test: strings.HasSuffix(tc.file, "_test.go"), file: f}}}})
		var text string
		if len(got) > 0 {
			text = got[0].String()
		}
		if text != tc.want || len(got) > 1 {
			t.Errorf("%s: got %q (%d violations), want %q", tc.why, text, len(got), tc.want)
		}
	}
}

// TestExceptionsAreDocumented holds the test's exceptions to the list in
// docs/packages.md, and to files that exist: an exception the documents do
// not state, or one left behind by a rename, is a rule quietly widened.
func TestExceptionsAreDocumented(t *testing.T) {
	packages(t) // sets rootDir
	doc, err := os.ReadFile(filepath.Join(rootDir, "docs", "packages.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range testExceptions {
		base := filepath.Base(e.file)
		if !strings.Contains(string(doc), base) {
			t.Errorf("exception for %s: docs/packages.md does not name %s", e.file, base)
		}
		if _, err := os.Stat(filepath.Join(rootDir, e.file)); err != nil {
			t.Errorf("exception for %s: %v", e.file, err)
		}
	}
}
