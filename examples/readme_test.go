// Package examples holds, in its sub-packages, the extensions the README's
// how-tos walk through; this test keeps the README's code the code that
// those packages build and test.
package examples

import (
	"os"
	"strings"
	"testing"
)

// Each recipe in the README is its file, whole.
func TestREADMERecipesAreTheExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"perturbation/courteous.go", "family/stack.go", "agent/oneshot.go", "agent/prompts/oneshot.tmpl"} {
		code, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), "\n"+strings.TrimRight(string(code), "\n")+"\n```") {
			t.Errorf("README.md does not hold examples/%s as it is; copy the file into its recipe", path)
		}
	}
}
