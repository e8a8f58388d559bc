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

// onlyTagged reports whether src is built only with tag: its //go:build
// line holds with it and fails without.
func onlyTagged(src []byte, tag string) bool {
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
		// The tag only: it builds with every tag, and not with every tag
		// but that one.
		with := expr.Eval(func(string) bool { return true })
		without := expr.Eval(func(t string) bool { return t != tag })
		return with && !without
	}
	return false
}

// taggedTiers are the test tiers whose files the Makefile finds by name
// and builds with a tag: the long tier, and the browser tier, which runs
// only the tests named TestBrowser….
var taggedTiers = []struct {
	suffix, tag, target, prefix string
}{
	{"_long_test.go", "long", "make test-long", "Test"},
	{"_browser_test.go", "browser", "make test-browser", "TestBrowser"},
}

// TestTaggedTiers holds each tagged tier's two marks together: the
// Makefile finds its tests by their files' names (*_long_test.go,
// *_browser_test.go) and builds them with the tag, so a file with one
// mark and not the other would run in no tier, or in two.
func TestTaggedTiers(t *testing.T) {
	for _, tier := range taggedTiers {
		n := 0
		for _, p := range packages(t) {
			for _, f := range p.files {
				src, err := os.ReadFile(filepath.Join(rootDir, f.path))
				if err != nil {
					t.Fatal(err)
				}
				named := strings.HasSuffix(f.path, tier.suffix)
				tagged := onlyTagged(src, tier.tag)
				switch {
				case named && !tagged:
					t.Errorf("%s: a %s file needs the line //go:build %s above its package clause", f.path, tier.target, tier.tag)
				case tagged && !named:
					t.Errorf("%s: built only with the tag %s, but %s runs the files named *%s: rename it", f.path, tier.tag, tier.target, tier.suffix)
				case named:
					n++
					if !hasTest(f.file, tier.prefix) {
						t.Errorf("%s: a %s file with no %s… function: %s finds the tests it runs by their names there", f.path, tier.target, tier.prefix, tier.target)
					}
				}
			}
		}
		if n == 0 {
			t.Errorf("no *%s file: %s would run nothing", tier.suffix, tier.target)
		}
	}
}

func hasTest(f *ast.File, prefix string) bool {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, prefix) {
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
		if got := onlyTagged([]byte(tc.src), "long"); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.why, got, tc.want)
		}
	}
}
