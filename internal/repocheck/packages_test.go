package repocheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// module is the project's module path; the rules name packages relative to
// it.
const module = "github.com/ambibench/ambibench"

// sourceFile is one Go file of a project package, parsed for its imports
// and, for the race list, its go statements.
type sourceFile struct {
	path string // relative to the repository's root, with slashes
	test bool   // a _test.go file
	file *ast.File
}

// pkg is a project package as go list sees it, with every file it holds on
// any platform (build-constrained files included: a rule holds for them
// too).
type pkg struct {
	path  string // relative to the module, "" for the root
	files []sourceFile
}

var (
	loadOnce sync.Once
	loaded   []pkg
	loadErr  error
	rootDir  string

	// fileSet holds the positions of every file parsed, for messages.
	fileSet = token.NewFileSet()
)

// packages lists the module's packages (not the cp fork, a module of its
// own) with their files parsed. go list runs once per test binary.
func packages(t *testing.T) []pkg {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

type listed struct {
	ImportPath     string
	Dir            string
	GoFiles        []string
	CgoFiles       []string
	IgnoredGoFiles []string
	TestGoFiles    []string
	XTestGoFiles   []string
}

func load() ([]pkg, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return nil, err
	}
	rootDir = filepath.Dir(strings.TrimSpace(string(out)))
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = rootDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			return nil, err
		}
		p := pkg{path: strings.TrimPrefix(strings.TrimPrefix(l.ImportPath, module), "/")}
		add := func(names []string, test bool) error {
			for _, name := range names {
				full := filepath.Join(l.Dir, name)
				f, err := parser.ParseFile(fileSet, full, nil, parser.SkipObjectResolution)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(rootDir, full)
				p.files = append(p.files, sourceFile{path: filepath.ToSlash(rel), test: test, file: f})
			}
			return nil
		}
		// IgnoredGoFiles holds the files of other platforms, and test
		// files among them; the suffix tells which.
		var ignoredSrc, ignoredTest []string
		for _, name := range l.IgnoredGoFiles {
			if strings.HasSuffix(name, "_test.go") {
				ignoredTest = append(ignoredTest, name)
			} else {
				ignoredSrc = append(ignoredSrc, name)
			}
		}
		for _, group := range []struct {
			names []string
			test  bool
		}{{l.GoFiles, false}, {l.CgoFiles, false}, {ignoredSrc, false}, {l.TestGoFiles, true}, {l.XTestGoFiles, true}, {ignoredTest, true}} {
			if err := add(group.names, group.test); err != nil {
				return nil, err
			}
		}
		sort.Slice(p.files, func(i, j int) bool { return p.files[i].path < p.files[j].path })
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// projectImports returns the file's imports of the module's own packages,
// relative to the module.
func projectImports(f *ast.File) []string {
	var out []string
	for _, spec := range f.Imports {
		path := strings.Trim(spec.Path.Value, `"`)
		if path == module {
			out = append(out, "")
		} else if rest, ok := strings.CutPrefix(path, module+"/"); ok {
			out = append(out, rest)
		}
	}
	return out
}
