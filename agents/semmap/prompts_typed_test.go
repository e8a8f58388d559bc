package semmap

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestPromptsTyped: every template of the semmap prompts is checked
// against the data it is rendered with, which prompts.go registers: a
// template with no registered type (and that no registered one calls)
// fails here, and so does a built-in template that names a field its
// data does not have. That is what lets run --prompts check a replaced
// template before the run.
func TestPromptsTyped(t *testing.T) {
	if err := prompts.Check(); err != nil {
		t.Errorf("the built-in templates do not pass the check that replaced ones must:\n%v", err)
	}
	if u := prompts.Untyped(); len(u) > 0 {
		t.Errorf("templates with no registered data type (add each one the workflow renders to the map in prompts.go, with a zero value of its data): %v", u)
	}
}

// TestWorkflowsRenderWithTheRunsPrompts: the workflows render with
// renderIn(ctx, …), which reads the templates run --prompts replaced from
// the run's context; render(…) is the built-in text, for tests only, and
// a workflow that called it would ignore --prompts.
func TestWorkflowsRenderWithTheRunsPrompts(t *testing.T) {
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
