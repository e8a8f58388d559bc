package simmodel

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// TestSortImageObjectsIsTheSort holds sortImageObjects to sorting the
// objects themselves, over lists with many ties of box and of name.
func TestSortImageObjectsIsTheSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		n := r.IntN(70)
		out := make([]llm.ImageObject, n)
		for i := range out {
			out[i] = llm.ImageObject{Name: []string{"a", "b", "c"}[r.IntN(3)], Color: []string{"x", "y"}[r.IntN(2)], Type: "t",
				Box: [4]int{r.IntN(3), r.IntN(3), r.IntN(3), r.IntN(3)}}
		}
		want := slices.Clone(out)
		slices.SortFunc(want, func(a, b llm.ImageObject) int {
			for i := range a.Box {
				if d := cmp.Compare(a.Box[i], b.Box[i]); d != 0 {
					return d
				}
			}
			return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Color, b.Color), strings.Compare(a.Type, b.Type))
		})
		sortImageObjects(out)
		if !slices.Equal(out, want) {
			t.Fatalf("%v\n%v", out, want)
		}
	}
}
