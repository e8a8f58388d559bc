package housework

import (
	"fmt"
	"strings"
)

// The six task types, under the names tasks/alfworld gives them.
const (
	TypePickAndPlace       = "pick_and_place"
	TypeLookAtObjInLight   = "look_at_obj_in_light"
	TypePickCleanThenPlace = "pick_clean_then_place"
	TypePickHeatThenPlace  = "pick_heat_then_place"
	TypePickCoolThenPlace  = "pick_cool_then_place"
	TypePickTwoObjAndPlace = "pick_two_obj_and_place"
)

// States a task may ask the object to be in.
const (
	StateHot   = "hot"
	StateCold  = "cold"
	StateClean = "clean"
)

// Task is an instruction as the planner reads it.
type Task struct {
	Type string
	// Kind is the object kind named, "" while the instruction is vague.
	Kind  string
	Count int    // objects to place: 1, or 2 for pick_two_obj_and_place
	State string // StateHot, StateCold, StateClean or ""
	Dest  string // receptacle kind to put the object(s) in or on; "" for look_at_obj_in_light
	Lamp  string // the lamp kind, for look_at_obj_in_light
	// Definite is set for "that X": one X in particular is meant.
	Definite bool
	// Vague is set for "something": the kind is not said.
	Vague bool
}

// Verb is the command that gives the task's state: heat, cool, clean, or "".
func (t Task) Verb() string {
	switch t.State {
	case StateHot:
		return "heat"
	case StateCold:
		return "cool"
	case StateClean:
		return "clean"
	}
	return ""
}

// Appliance is the receptacle kind that gives the task's state, or "".
func (t Task) Appliance() string {
	switch t.State {
	case StateHot:
		return "microwave"
	case StateCold:
		return "fridge"
	case StateClean:
		return "sinkbasin"
	}
	return ""
}

// stateWords maps the adjectives of the task sentences to states.
var stateWords = map[string]string{
	"hot": StateHot, "heated": StateHot, "warm": StateHot,
	"cool": StateCold, "cold": StateCold, "cooled": StateCold, "chilled": StateCold,
	"clean": StateClean, "cleaned": StateClean, "washed": StateClean,
}

// treatVerbs maps the verbs that open a treat-then-place sentence to
// states.
var treatVerbs = map[string]string{"heat": StateHot, "cool": StateCold, "chill": StateCold, "clean": StateClean, "wash": StateClean}

// ParseInstruction reads a task sentence in ALFWorld's style, with or
// without "Your task is to:" in front:
//
//	put a mug in coffeemachine.                 pick_and_place
//	look at that book under the desklamp.       look_at_obj_in_light, definite
//	clean some cloth and put it in countertop.  pick_clean_then_place
//	put something hot in fridge.                pick_heat_then_place, vague
//	find two pen and put them in drawer.        pick_two_obj_and_place
//
// It never panics; an error says which part it could not read.
func ParseInstruction(s string) (Task, error) {
	n := normalize(s)
	if n == "" {
		return Task{}, fmt.Errorf("instruction %q: empty", s)
	}
	t, err := parseNormal(n)
	if err != nil {
		return Task{}, fmt.Errorf("instruction %q: %w", s, err)
	}
	return t, nil
}

func parseNormal(n string) (Task, error) {
	t := Task{Count: 1}
	first, rest, _ := strings.Cut(n, " ")
	var obj, dest string
	switch {
	case first == "look" && strings.HasPrefix(rest, "at "), first == "examine":
		t.Type = TypeLookAtObjInLight
		rest = strings.TrimPrefix(rest, "at ")
		var lamp string
		var ok bool
		for _, sep := range []string{" under ", " with ", " by ", " using "} {
			if i := strings.LastIndex(rest, sep); i > 0 {
				obj, lamp, ok = rest[:i], rest[i+len(sep):], true
				break
			}
		}
		if !ok {
			return t, fmt.Errorf("no lamp: want \"look at X under the LAMP\"")
		}
		t.Lamp = strings.Join(strings.Fields(strings.TrimPrefix(lamp, "the ")), "")
		if t.Lamp == "" {
			return t, fmt.Errorf("no lamp named")
		}
	case treatVerbs[first] != "":
		t.State = treatVerbs[first]
		o, d, ok := cutAny(rest, " and put it ", " and place it ", " and put them ")
		if !ok {
			return t, fmt.Errorf("want %q", first+" X and put it in Y")
		}
		obj, dest = o, d
	case first == "find" && strings.HasPrefix(rest, "two "):
		o, d, ok := cutAny(rest, " and put them ", " and place them ")
		if !ok {
			return t, fmt.Errorf("want \"find two X and put them in Y\"")
		}
		obj, dest = o, d
		t.Type = TypePickTwoObjAndPlace
	case first == "put" || first == "place" || first == "move":
		o, d, ok := cutPlace(rest)
		if !ok {
			return t, fmt.Errorf("no destination: want \"put X in Y\"")
		}
		obj, dest = o, d
	default:
		return t, fmt.Errorf("unknown task form %q", first)
	}
	if t.Type != TypeLookAtObjInLight {
		d := dest
		for _, p := range []string{"in/on ", "into ", "onto ", "in ", "on ", "to "} {
			if after, ok := strings.CutPrefix(d, p); ok {
				d = after
				break
			}
		}
		d = strings.TrimPrefix(strings.TrimPrefix(d, "the "), "a ")
		t.Dest = strings.Join(strings.Fields(d), "")
		if t.Dest == "" {
			return t, fmt.Errorf("no destination named")
		}
	}
	if err := t.readObject(obj); err != nil {
		return t, err
	}
	if t.Type == "" {
		t.Type = placeType(t)
	}
	return t, nil
}

// placeType names the type of a put sentence by what it asks of the
// object.
func placeType(t Task) string {
	switch {
	case t.Count >= 2:
		return TypePickTwoObjAndPlace
	case t.State == StateHot:
		return TypePickHeatThenPlace
	case t.State == StateCold:
		return TypePickCoolThenPlace
	case t.State == StateClean:
		return TypePickCleanThenPlace
	}
	return TypePickAndPlace
}

// readObject reads the object phrase: a determiner (a, an, some, the, that,
// two, something), a state adjective, and the kind.
func (t *Task) readObject(p string) error {
	ws := strings.Fields(p)
	if len(ws) == 0 {
		return fmt.Errorf("no object named")
	}
	switch ws[0] {
	case "something", "anything":
		t.Vague = true
		ws = ws[1:]
	case "two":
		t.Count = 2
		ws = ws[1:]
		if len(ws) > 0 && (ws[0] == "things" || ws[0] == "objects") {
			t.Vague = true
			ws = nil // "of one kind"
		}
	case "that", "this":
		// ALFWorld's own sentences say "the" of any one ("examine the pen
		// with the desklamp"); a particular one is "that".
		t.Definite = true
		ws = ws[1:]
	case "a", "an", "some", "one", "any", "the":
		ws = ws[1:]
	}
	for len(ws) > 0 && stateWords[ws[0]] != "" {
		if t.State == "" {
			t.State = stateWords[ws[0]]
		}
		ws = ws[1:]
	}
	if t.Vague {
		return nil
	}
	if len(ws) == 0 {
		return fmt.Errorf("no object kind named in %q", p)
	}
	t.Kind = singular(strings.Join(ws, ""))
	return nil
}

// cutAny cuts s around the first of seps found.
func cutAny(s string, seps ...string) (before, after string, ok bool) {
	for _, sep := range seps {
		if b, a, found := strings.Cut(s, sep); found && b != "" {
			return b, a, true
		}
	}
	return "", "", false
}

// cutPlace splits "a hot apple in fridge" into the object phrase and the
// destination with its preposition, at the earliest preposition.
func cutPlace(s string) (obj, dest string, ok bool) {
	best := -1
	for _, sep := range []string{" in/on ", " into ", " onto ", " in ", " on ", " to "} {
		if i := strings.Index(s, sep); i > 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return "", "", false
	}
	return s[:best], strings.TrimSpace(s[best:]), true
}
