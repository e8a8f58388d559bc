package alfworld

import (
	"fmt"

	"github.com/ambibench/ambibench/scenes"
)

// The six task types of ALFWorld.
const (
	TypePickAndPlace       = "pick_and_place"
	TypeLookAtObjInLight   = "look_at_obj_in_light"
	TypePickCleanThenPlace = "pick_clean_then_place"
	TypePickHeatThenPlace  = "pick_heat_then_place"
	TypePickCoolThenPlace  = "pick_cool_then_place"
	TypePickTwoObjAndPlace = "pick_two_obj_and_place"
)

// States a goal may ask its objects to be in.
const (
	StateClean = "clean"
	StateHot   = "hot"
	StateCold  = "cold"
)

// Types returns the six task types in ALFWorld's order.
func Types() []string {
	return []string{TypePickAndPlace, TypeLookAtObjInLight, TypePickCleanThenPlace,
		TypePickHeatThenPlace, TypePickCoolThenPlace, TypePickTwoObjAndPlace}
}

// Goal is what the final state of a game must satisfy. It states what the
// user means, whatever the instruction says: under a perturbation the
// instruction may name a kind that is absent or be vague, but the goal
// names the kind, or the very object, that the user's answer would give.
type Goal struct {
	Type  string
	Kind  string // the kind of object meant
	Item  string // when not "", the one object meant ("mug 2")
	Count int    // how many such objects end at the destination: 1, or 2
	State string // "clean", "hot", "cold", or "" for none
	// Dest is the receptacle kind the objects must end in or on; for two
	// objects, the same receptacle. Empty for look_at_obj_in_light.
	Dest string
	// Lamp is, for look_at_obj_in_light, the kind of lamp that must be
	// switched on at the receptacle where the agent stands holding the
	// object.
	Lamp string
}

// Matches reports whether an item is one the goal means, whatever its
// place and state.
func (g Goal) Matches(it *scenes.Item) bool {
	if g.Item != "" {
		return it.Name == g.Item
	}
	return it.Kind == g.Kind
}

// treated reports whether an item is in the state the goal asks for.
func (g Goal) treated(it *scenes.Item) bool {
	switch g.State {
	case StateClean:
		return it.Clean
	case StateHot:
		return it.Hot
	case StateCold:
		return it.Cold
	}
	return true
}

// Holds reports whether the goal is met in h and, if not, what is missing.
func (g Goal) Holds(h *scenes.House) (bool, string) {
	if g.Type == TypeLookAtObjInLight {
		if h.Held == scenes.Nowhere || !g.Matches(&h.Items[h.Held]) {
			return false, fmt.Sprintf("the agent does not hold %s", g.what())
		}
		for i := range h.Items {
			it := &h.Items[i]
			if it.Kind == g.Lamp && it.On && h.SamePlace(h.At, it.In) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("no %s is on where the agent stands", g.Lamp)
	}
	var count map[int]int // by receptacle, only when two must share one
	for i := range h.Items {
		it := &h.Items[i]
		if it.In == scenes.Nowhere || !g.Matches(it) || !g.treated(it) || h.Receptacles[it.In].Kind != g.Dest {
			continue
		}
		if g.Count <= 1 {
			return true, ""
		}
		if count == nil {
			count = map[int]int{}
		}
		count[it.In]++
		if count[it.In] >= g.Count {
			return true, ""
		}
	}
	state := ""
	if g.State != "" {
		state = g.State + " "
	}
	if g.Count >= 2 {
		return false, fmt.Sprintf("no %s holds %d %s%s", g.Dest, g.Count, state, g.what())
	}
	return false, fmt.Sprintf("no %s%s is in/on a %s", state, g.what(), g.Dest)
}

// Satisfied is Holds without the reason, for searches.
func (g Goal) Satisfied(h *scenes.House) bool {
	ok, _ := g.Holds(h)
	return ok
}

func (g Goal) what() string {
	if g.Item != "" {
		return "the " + g.Item
	}
	return g.Kind
}
