package repocheck

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/build/constraint"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// longTagged reports whether src is built only with the tag long: its
// //go:build line holds with long and fails without.
func longTagged(src []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false
		}
		// Long only: it builds with every tag, and not with every tag but
		// long.
		with := expr.Eval(func(string) bool { return true })
		without := expr.Eval(func(tag string) bool { return tag != "long" })
		return with && !without
	}
	return false
}

// TestLongTier holds the long tier's two marks together: the Makefile finds
// the long tests by their files' names (*_long_test.go) and builds them with
// the tag long, so a file with one mark and not the other would run in no
// tier, or in both.
func TestLongTier(t *testing.T) {
	long := 0
	for _, p := range packages(t) {
		for _, f := range p.files {
			src, err := os.ReadFile(filepath.Join(rootDir, f.path))
			if err != nil {
				t.Fatal(err)
			}
			named := strings.HasSuffix(f.path, "_long_test.go")
			tagged := longTagged(src)
			switch {
			case named && !tagged:
				t.Errorf("%s: a long test file needs the line //go:build long above its package clause", f.path)
			case tagged && !named:
				t.Errorf("%s: built only with the tag long, but make test-long runs the files named *_long_test.go: rename it", f.path)
			case named:
				long++
				if !hasTest(f.file) {
					t.Errorf("%s: a long test file with no Test function: make test-long finds the tests it runs by their names there", f.path)
				}
			}
		}
	}
	if long == 0 {
		t.Error("no *_long_test.go file: make test-long would run nothing")
	}
}

func hasTest(f *ast.File) bool {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
			return true
		}
	}
	return false
}

func TestLongTagged(t *testing.T) {
	for _, tc := range []struct {
		why, src string
		want     bool
	}{
		{"the tag alone", "//go:build long\n\npackage p\n", true},
		{"long and a platform is still long only", "// c\n//go:build long && linux\n\npackage p\n", true},
		{"no constraint", "package p\n", false},
		{"not long is the other tier", "//go:build !long\n\npackage p\n", false},
		{"a constraint below the package clause is no constraint", "package p\n//go:build long\n", false},
		{"long or race builds without the tag", "//go:build long || race\n\npackage p\n", false},
	} {
		if got := longTagged([]byte(tc.src)); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.why, got, tc.want)
		}
	}
}
