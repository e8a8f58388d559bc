package perturb

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// TestSeenAnswerPicksTheMeantObject: over many multiplicity episodes of
// every family, the answer for a robot that names what it sees names no
// id (it says where the object is, or its colour when that is unique), the task grammar reads it, and on the table's own graph it resolves
// to the meant object alone; most episodes have one.
func TestSeenAnswerPicksTheMeantObject(t *testing.T) {
	t.Parallel()
	with, total := 0, 0
	for _, f := range tasks.All() {
		for seed := range uint64(40) {
			ep := draw(t, f.Name(), tasks.LabelMultiplicity, seed)
			total++
			if ep.AnswerSeen == "" {
				continue
			}
			with++
			phrase, ok := strings.CutPrefix(strings.TrimSuffix(ep.AnswerSeen, "."), "I mean ")
			if !ok {
				t.Fatalf("%s seed %d: answer %q", f.Name(), seed, ep.AnswerSeen)
			}
			ref, err := grounding.ParseRef(phrase)
			if err != nil || ref.ID != "" || ref.Anchor != nil && ref.Anchor.ID != "" {
				t.Errorf("%s seed %d: %q: read as %+v (%v); want a phrase by place or colour, with no id", f.Name(), seed, phrase, ref, err)
				continue
			}
			meant := strings.TrimSuffix(strings.TrimPrefix(ep.Answer, "I mean "), ".")
			got, err := grounding.Resolve(grounding.GraphView{G: scenes.BuildGraph(ep.Objects)}, ref)
			if err != nil || len(got) != 1 || got[0] != meant {
				t.Errorf("%s seed %d: %q resolves to %v (%v) on the table, want [%s]", f.Name(), seed, phrase, got, err, meant)
			}
		}
	}
	if with*10 < total*8 {
		t.Errorf("%d of %d multiplicity episodes have an answer by place; want at least 80%%", with, total)
	}
	t.Logf("%d of %d multiplicity episodes have an answer by place", with, total)
}
