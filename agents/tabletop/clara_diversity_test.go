package tabletop

import (
	"math"
	"testing"
)

// The diversity of a set of phrases: the mean Euclidean distance between
// their bags of words over all pairs, the reference's formula with a bag
// of words for its word vectors.
func TestPhraseDiversity(t *testing.T) {
	third := math.Sqrt(2) / 3 // one word of three swapped for another
	for _, tc := range []struct {
		why     string
		phrases []string
		want    float64
	}{
		{"no answers: no pair, no diversity", nil, 0},
		{"one answer: no pair, no diversity (the reference would divide by zero)", []string{"red block 1"}, 0},
		{"every answer the same: certain", []string{"red block 1", "red block 1", "red block 1"}, 0},
		{"case and punctuation are not words: the same phrase", []string{"Red block 1.", "red  block 1"}, 0},
		{"a bag of words: word order is lost (a limit of the substitute)", []string{"block red", "red block"}, 0},
		{"a word said twice weighs as the mean of its vectors does: no change", []string{"red red", "red"}, 0},
		{"another instance of the same kind: one word of three differs", []string{"green block 1", "green block 2"}, third},
		{"another colour is as far as another instance: every word is orthogonal to every other", []string{"green block 1", "red block 1"}, third},
		{"no word in common: the two vectors' lengths", []string{"green block 1", "middle"}, math.Sqrt(1.0/3 + 1)},
		{"one dissenter of four: three pairs of six differ", []string{"a b c", "a b c", "a b c", "a b d"}, third * 3 / 6},
		{"an even split of four: four pairs of six differ, more diverse than one dissenter", []string{"a b c", "a b c", "a b d", "a b d"}, third * 4 / 6},
	} {
		if got := phraseDiversity(tc.phrases); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v gives %.6f, want %.6f", tc.why, tc.phrases, got, tc.want)
		}
	}
}

// A set of sampled plans' uncertainty: step by step, the pick phrases'
// diversity plus the place phrases', and the plans' is their most
// uncertain step's.
func TestPlanDiversity(t *testing.T) {
	mv := func(pick, place string) claraStep { return claraStep{Pick: pick, Place: place} }
	ask := func(msg string) claraStep { return claraStep{AskRobot: msg} }
	third := math.Sqrt(2) / 3
	handOver := []claraStep{mv("red block 1", "shared workspace"), ask("Please put green block 3 in the shared workspace."), mv("green block 3", "blue bowl 1")}
	for _, tc := range []struct {
		why   string
		plans [][]claraStep
		want  float64
	}{
		{"no readable plan: nothing to compare", nil, 0},
		{"identical plans of several moves and a message to the other robot: certain",
			[][]claraStep{handOver, handOver, handOver}, 0},
		{"the picks split, the place agrees: the picks' diversity alone",
			[][]claraStep{{mv("green block 1", "blue bowl 1")}, {mv("green block 2", "blue bowl 1")}}, third},
		{"picks and places both split: the two diversities add up, as the reference's total does",
			[][]claraStep{{mv("green block 1", "blue bowl 1")}, {mv("green block 2", "blue bowl 2")}}, 2 * third},
		{"plans that part at their second step: that step's diversity, however the first agrees",
			[][]claraStep{{mv("red block 1", "middle"), mv("green block 1", "red block 1")}, {mv("red block 1", "middle"), mv("green block 2", "red block 1")}}, third},
		{"the most uncertain step counts, not the sum over steps",
			[][]claraStep{{mv("a b c", "x"), mv("a b c", "x")}, {mv("a b d", "x"), mv("a b d", "y")}}, third + math.Sqrt(2)},
		{"a plan that ends early is done where the other goes on: done against a move",
			[][]claraStep{{mv("red block 1", "middle")}, {mv("red block 1", "middle"), mv("green block 1", "middle")}},
			math.Sqrt(1.0/3+1) + math.Sqrt(2)},
		{"an empty plan is done at once",
			[][]claraStep{{}, {}}, 0},
		{"a message where another plan moves: the message is the pick phrase, ask_robot the place phrase",
			[][]claraStep{{ask("Please help")}, {mv("red block 1", "middle")}},
			math.Sqrt(1.0/2+1.0/3) + math.Sqrt(1.0/2+1)},
		{"messages asking for different blocks differ in one word of nine",
			[][]claraStep{{ask("Please put green block 3 in the shared workspace.")}, {ask("Please put green block 4 in the shared workspace.")}},
			math.Sqrt(2) / 9},
	} {
		if got := planDiversity(tc.plans); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %.6f, want %.6f", tc.why, got, tc.want)
		}
	}
}
