package repocheck

import (
	"bufio"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raceEntry is one line of race.txt.
type raceEntry struct {
	pkg, tier, why string
	line           int
}

// readRaceList reads race.txt: a package, its tier and the reason, a line
// each; # starts a comment.
func readRaceList(path string) ([]raceEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []raceEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: want a package, a tier (fast or long) and why, got %q", path, n, strings.TrimSpace(text))
		}
		if fields[1] != "fast" && fields[1] != "long" {
			return nil, fmt.Errorf("%s:%d: tier %q: want fast or long", path, n, fields[1])
		}
		out = append(out, raceEntry{pkg: fields[0], tier: fields[1], why: strings.Join(fields[2:], " "), line: n})
	}
	return out, sc.Err()
}

// startsGoroutines returns where a file starts a goroutine: a go statement,
// or a call of a method named Go (errgroup.Group's, sync.WaitGroup's), as
// "file:line: what" positions; nil if nowhere.
func startsGoroutines(f sourceFile) []string {
	var at []string
	ast.Inspect(f.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			at = append(at, fmt.Sprintf("%s:%d: go statement", f.path, fileSet.Position(n.Pos()).Line))
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
				at = append(at, fmt.Sprintf("%s:%d: a call of Go", f.path, fileSet.Position(n.Pos()).Line))
			}
		}
		return true
	})
	return at
}

// checkRaceList returns what is wrong with the list against the packages:
// a package that starts goroutines and is not listed, a listed package that
// does not exist, a package listed twice.
func checkRaceList(list []raceEntry, pkgs []pkg, listPath string) []string {
	var problems []string
	listed := map[string]int{}
	for _, e := range list {
		if prev, ok := listed[e.pkg]; ok {
			problems = append(problems, fmt.Sprintf("%s:%d: %s is listed already on line %d", listPath, e.line, e.pkg, prev))
		}
		listed[e.pkg] = e.line
	}
	known := map[string]bool{}
	for _, p := range pkgs {
		known[p.path] = true
		if _, ok := listed[p.path]; ok {
			continue
		}
		for _, f := range p.files {
			if at := startsGoroutines(f); len(at) > 0 {
				problems = append(problems, fmt.Sprintf("%s: package %s starts goroutines but %s does not list it: add it, with its tier and why", at[0], name(p.path), listPath))
				break
			}
		}
	}
	for _, e := range list {
		if !known[e.pkg] {
			problems = append(problems, fmt.Sprintf("%s:%d: no package %s in the module", listPath, e.line, e.pkg))
		}
	}
	return problems
}

func TestRaceList(t *testing.T) {
	pkgs := packages(t)
	path := filepath.Join(rootDir, "race.txt")
	list, err := readRaceList(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkRaceList(list, pkgs, "race.txt") {
		t.Error(p)
	}
}

// TestRaceListCatch checks that the list check catches what it is for.
func TestRaceListCatch(t *testing.T) {
	goStmt := parseSource(t, "package p\nfunc f() {\n\tgo f()\n}\n")
	groupGo := parseSource(t, "package p\nfunc f(g interface{ Go(func() error) }) {\n\tg.Go(func() error { return nil })\n}\n")
	plain := parseSource(t, "package p\nfunc f() {}\n")
	for _, tc := range []struct {
		why  string
		list []raceEntry
		pkgs []pkg
		want string // the first problem, "" for none
	}{
		{"a go statement in a package left out", nil,
			[]pkg{{path: "a", files: []sourceFile{{path: "a/a.go", file: goStmt}}}},
			"a/a.go:3: go statement: package a starts goroutines but race.txt does not list it: add it, with its tier and why"},
		{"a test's errgroup counts as well", nil,
			[]pkg{{path: "a", files: []sourceFile{{path: "a/a_test.go", test: true, file: groupGo}}}},
			"a/a_test.go:3: a call of Go: package a starts goroutines but race.txt does not list it: add it, with its tier and why"},
		{"a listed package passes", []raceEntry{{pkg: "a", tier: "fast", why: "x", line: 1}},
			[]pkg{{path: "a", files: []sourceFile{{path: "a/a.go", file: goStmt}}}}, ""},
		{"a package without goroutines need not be listed", nil,
			[]pkg{{path: "a", files: []sourceFile{{path: "a/a.go", file: plain}}}}, ""},
		{"a listed package that is gone", []raceEntry{{pkg: "gone", tier: "fast", why: "x", line: 4}},
			nil, "race.txt:4: no package gone in the module"},
	} {
		got := checkRaceList(tc.list, tc.pkgs, "race.txt")
		var first string
		if len(got) > 0 {
			first = got[0]
		}
		if first != tc.want {
			t.Errorf("%s: got %q, want %q", tc.why, first, tc.want)
		}
	}
}

func TestReadRaceListErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		why, text, want string
	}{
		{"a line without its reason", "bench fast\n", `race.txt:1: want a package, a tier (fast or long) and why, got "bench fast"`},
		{"a tier that is neither", "# c\nbench slow because\n", `race.txt:2: tier "slow": want fast or long`},
	} {
		path := filepath.Join(dir, "race.txt")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readRaceList(path)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error ending %q", tc.why, err, tc.want)
		}
	}
}
