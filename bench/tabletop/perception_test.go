package tabletop

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// A refusal may name objects besides the pick and the place ("is under
// …"); each renamed one must read by its perceived name, or the refusal
// tells the robot what it misread. An id the robot itself wrote stays.
func TestRefusalSpeaksOfEveryObjectAsSeen(t *testing.T) {
	t.Parallel()
	for i := range 200 {
		e, _ := noisyEnv(t, "pick_place", "scene_graph_noise", i)
		_, aliases := e.perceive()
		if len(aliases) == 0 {
			continue
		}
		var seen, truth string
		for s, tr := range aliases {
			if seen == "" || s < seen {
				seen, truth = s, tr
			}
		}
		other := scenes.ObjectID("silver", scenes.ClassBlock, 1)
		reason := other + " is under " + truth
		if got, want := e.perceived(reason, other), other+" is under "+seen; got != want {
			t.Errorf("episode %d: %q became %q, want %q", i, reason, got, want)
		}
		if got := e.perceived(reason, truth); got != reason {
			t.Errorf("episode %d: the robot named %s itself, yet %q became %q", i, truth, reason, got)
		}
		if got := e.perceived(truth+"2 is far", other); !strings.HasPrefix(got, truth+"2") {
			t.Errorf("episode %d: %s inside a longer id was rewritten: %q", i, truth, got)
		}
		return
	}
	t.Fatal("no episode in 200 renames an object")
}
