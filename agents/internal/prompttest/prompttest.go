// Package prompttest holds the checks every workflow package runs on its
// prompt templates, so that run --prompts can rely on them: each template
// has a registered data type and passes the check a replaced one must,
// and no workflow renders past the run's templates.
package prompttest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/prompt"
)

// Typed fails t if a built-in template of set names a field its data does
// not have, or if set has a template with no registered data type (and
// that no registered one calls). name names the set in the messages.
func Typed(t *testing.T, name string, set *prompt.Set) {
	t.Helper()
	if err := set.Check(); err != nil {
		t.Errorf("the built-in %s templates do not pass the check that replaced ones must:\n%v", name, err)
	}
	if u := set.Untyped(); len(u) > 0 {
		t.Errorf("%s templates with no registered data type (add each one the workflow renders to the map in prompts.go, with a zero value of its data): %v", name, u)
	}
}

// RenderInOnly fails t for every call, in the non-test Go files of the
// current directory but prompts.go, of render(…) or prompts.Render(…):
// those give the built-in text and ignore the templates run --prompts
// replaced, which renderIn(ctx, …) reads from the run's context.
func RenderInOnly(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == "prompts.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "render" {
				t.Errorf("%s: a workflow calls render, which ignores run --prompts; call renderIn(ctx, …)", fset.Position(call.Pos()))
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Render" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "prompts" {
					t.Errorf("%s: a workflow calls prompts.Render, which ignores run --prompts; call renderIn(ctx, …)", fset.Position(call.Pos()))
				}
			}
			return true
		})
	}
}
