package housework

import "testing"

// The belief follows an arrival whose "You arrive at loc N. " a workflow
// cut off, as the Reflexion authors' loop does (alfworld_trial.py, lines
// 41-44): "go to R" answered by a sentence about R puts the agent at R.
func TestObserveBareArrival(t *testing.T) {
	t.Parallel()
	const opening = "You are in the middle of a room. Looking quickly around you, you see a countertop 1, a drawer 1, and a fridge 1.\n\nYour task is to: put some apple in fridge."
	for _, tc := range []struct {
		why, command, obs string
		at                string // "" for nowhere
		changed           bool
	}{
		{"whole, as the world writes it", "go to countertop 1", "You arrive at loc 3. On the countertop 1, you see a apple 1.", "countertop 1", true},
		{"cut, at an open receptacle", "go to countertop 1", "On the countertop 1, you see a apple 1.", "countertop 1", true},
		{"cut, at a closed one", "go to fridge 1", "The fridge 1 is closed.", "fridge 1", true},
		{"a failed go to goes nowhere", "go to fridge 1", "Nothing happens.", "", false},
		{"a sentence about another receptacle is not this arrival", "go to fridge 1", "On the countertop 1, you see nothing.", "", false},
	} {
		b := NewBelief(opening)
		e := b.Observe(tc.command, tc.obs)
		at := ""
		if b.At != Nowhere {
			at = b.Receptacles[b.At].Name
		}
		if at != tc.at || e.Changed != tc.changed {
			t.Errorf("%s: at %q, changed %v; want %q, %v", tc.why, at, e.Changed, tc.at, tc.changed)
		}
	}
}
