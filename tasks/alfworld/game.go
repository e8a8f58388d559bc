package alfworld

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// StepLimit is how many commands a trial of a game allows: the Reflexion
// authors' loop sends at most 49 actions (alfworld_trial.py, line 56,
// while cur_step < 49), thoughts and failed commands included, before
// ALFWorld's own limit of 50 could end the game.
const StepLimit = 49

// Game is one task instance: the house, the instruction, the goal behind
// it, and the ground truth of its ambiguity. Perturbations change it in
// place.
type Game struct {
	ID   string // stable across runs: "eval/pick_heat_then_place/07"
	Type string
	// Seed is the seed of the draw the game was made from: its spec's, or
	// a later one when the spec's draw could not take a perturbation.
	Seed        uint64
	House       *scenes.House
	Instruction string // "put a hot apple in fridge."
	Goal        Goal
	// Label is the ground-truth ambiguity, tasks.LabelNone unless a
	// perturbation made the game ambiguous.
	Label string
	// Answer is what the user says to a question whose tag matches Label.
	Answer    string
	StepLimit int

	// What the instruction is made of, so that a perturbation can say it
	// again differently.
	phrasing int    // which of the type's two phrasings
	form     Form   // how the object is referred to
	named    string // the object kind the instruction names
}

// Form is how an instruction refers to the object.
type Form uint8

// The forms of reference.
const (
	// FormIndefinite is ALFWorld's way, "a mug", "some mug", "bowl" or
	// even "the pen" in its look sentences: any one will do.
	FormIndefinite Form = iota
	// FormDefinite is "that mug": one in particular. ALFWorld's goal
	// sentences never say "that" (goal_library.py), so an ambiguity
	// signalled this way cannot collide with one of its own sentences.
	FormDefinite
	FormVague // "something": the kind is not said
)

// Named returns the object kind the instruction was drawn to name, which
// stays what it was when a perturbation changes the goal's kind (absence).
func (g *Game) Named() string { return g.named }

// Refer writes the instruction again in the type's phrasing, referring to
// the object in form f, with the goal's destination and lamp as they are
// now. It fails, changing nothing, when the type has no phrasing in that
// form (pick_two_obj_and_place has no definite one). A perturbation that
// sets Instruction itself need not call it.
func (g *Game) Refer(f Form) error {
	if int(f) >= len(phrasings[g.Type][g.phrasing]) || phrasings[g.Type][g.phrasing][f] == "" {
		return fmt.Errorf("game %s: %s has no phrasing in form %d", g.ID, g.Type, f)
	}
	g.form = f
	g.render()
	return nil
}

// phrasings are the two ways ALFWorld's goal library says each task type
// (goal_library.py, the templates of each goal), with the object referred
// to in each form. {o} is the object kind, {d}
// the destination kind, {l} the lamp kind.
var phrasings = map[string][2][3]string{
	TypePickAndPlace: {
		{"put a {o} in {d}.", "put that {o} in {d}.", "put something in {d}."},
		{"put some {o} on {d}.", "put that {o} on {d}.", "put something on {d}."},
	},
	TypeLookAtObjInLight: {
		{"look at {o} under the {l}.", "look at that {o} under the {l}.", "look at something under the {l}."},
		{"examine the {o} with the {l}.", "examine that {o} with the {l}.", "examine something with the {l}."},
	},
	TypePickCleanThenPlace: {
		{"put a clean {o} in {d}.", "put that clean {o} in {d}.", "put something clean in {d}."},
		{"clean some {o} and put it in {d}.", "clean that {o} and put it in {d}.", "clean something and put it in {d}."},
	},
	TypePickHeatThenPlace: {
		{"put a hot {o} in {d}.", "put that hot {o} in {d}.", "put something hot in {d}."},
		{"heat some {o} and put it in {d}.", "heat that {o} and put it in {d}.", "heat something and put it in {d}."},
	},
	TypePickCoolThenPlace: {
		{"put a cool {o} in {d}.", "put that cool {o} in {d}.", "put something cool in {d}."},
		{"cool some {o} and put it in {d}.", "cool that {o} and put it in {d}.", "cool something and put it in {d}."},
	},
	TypePickTwoObjAndPlace: {
		{"put two {o} in {d}.", "", "put two things of one kind in {d}."},
		{"find two {o} and put them in {d}.", "", "find two things of one kind and put them in {d}."},
	},
}

// render writes the instruction from the game's parts.
func (g *Game) render() {
	s := phrasings[g.Type][g.phrasing][g.form]
	s = strings.ReplaceAll(s, "{o}", g.named)
	s = strings.ReplaceAll(s, "{d}", g.Goal.Dest)
	g.Instruction = strings.ReplaceAll(s, "{l}", g.Goal.Lamp)
}

// Banner is the first paragraph of every ALFWorld game's opening
// (alfred.twl2, intro), which the ReAct and Reflexion runs cut off before
// the model reads it (alfworld_trial.py, line 107).
const Banner = "-= Welcome to TextWorld, ALFRED! =-"

// Intro is the first observation of the game as ALFWorld prints it: the
// banner, the room as the engine describes it on reset, then the task,
// each a paragraph (alfred.twl2, intro).
func (g *Game) Intro(room string) string {
	return Banner + "\n\n" + room + "\n\nYour task is to: " + g.Instruction
}

// Clone returns a deep copy of g.
func (g *Game) Clone() *Game {
	c := *g
	c.House = g.House.Clone()
	return &c
}

// spec is what a task type needs of a house.
type spec struct {
	rooms []string
	state string
	// appliance is the receptacle kind that treats the object; it is not a
	// destination, so that treating and placing stay two steps.
	appliance string
	count     int
	allows    func(scenes.Kind) bool
}

var specs = map[string]spec{
	TypePickAndPlace:       {rooms: scenes.HouseRooms(), count: 1, allows: func(scenes.Kind) bool { return true }},
	TypeLookAtObjInLight:   {rooms: []string{scenes.RoomLivingRoom, scenes.RoomBedroom}, count: 1, allows: func(scenes.Kind) bool { return true }},
	TypePickCleanThenPlace: {rooms: []string{scenes.RoomKitchen, scenes.RoomBathroom}, state: StateClean, appliance: scenes.KindSinkBasin, count: 1, allows: func(k scenes.Kind) bool { return k.Cleanable }},
	TypePickHeatThenPlace:  {rooms: []string{scenes.RoomKitchen}, state: StateHot, appliance: scenes.KindMicrowave, count: 1, allows: func(k scenes.Kind) bool { return k.Heatable }},
	TypePickCoolThenPlace:  {rooms: []string{scenes.RoomKitchen}, state: StateCold, appliance: scenes.KindFridge, count: 1, allows: func(k scenes.Kind) bool { return k.Coolable }},
	TypePickTwoObjAndPlace: {rooms: scenes.HouseRooms(), count: 2, allows: func(k scenes.Kind) bool { return k.Max >= 2 }},
}

// candidates returns the object kinds a task of this spec may be about in
// a room: ones that can be carried, found there, and, for treatments,
// that the treatment applies to.
func (s spec) candidates(room string) []scenes.Kind {
	var out []scenes.Kind
	for _, k := range scenes.Kinds() {
		if k.Pickupable && k.FoundIn(room) && s.allows(k) {
			out = append(out, k)
		}
	}
	return out
}

// destinations returns the receptacle kinds of h where an object of kind k
// may be put for this spec, in the house's listing order.
func (s spec) destinations(h *scenes.House, k scenes.Kind) []string {
	var out []string
	for _, r := range h.Receptacles {
		if k.Fits(r.Kind) && r.Kind != s.appliance && !slices.Contains(out, r.Kind) {
			out = append(out, r.Kind)
		}
	}
	return out
}

// errRedraw means a draw cannot make a game of the asked kind; the
// generator draws again from the same stream.
var errRedraw = errors.New("this draw cannot make the game; draw again")

// generateAttempts bounds the redraws of one game; every split is tested
// to need far fewer.
const generateAttempts = 200

// Generate draws a clear game of a task type from seed alone.
func Generate(taskType string, seed uint64) (*Game, error) {
	s, ok := specs[taskType]
	if !ok {
		return nil, fmt.Errorf("household task: unknown type %q (want one of %v)", taskType, Types())
	}
	rng := newRand(seed)
	for range generateAttempts {
		g, err := s.draw(rng, taskType)
		if errors.Is(err, errRedraw) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("household task %s, seed %d: %w", taskType, seed, err)
		}
		g.Seed = seed
		return g, nil
	}
	return nil, fmt.Errorf("household task %s, seed %d: no game after %d draws", taskType, seed, generateAttempts)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc908)) }

func (s spec) draw(rng *rand.Rand, taskType string) (*Game, error) {
	room := s.rooms[rng.IntN(len(s.rooms))]
	kinds := s.candidates(room)
	if len(kinds) == 0 {
		return nil, errRedraw
	}
	k := kinds[rng.IntN(len(kinds))]
	cfg := scenes.HouseConfig{Rooms: []string{room}, Require: []scenes.KindCount{{Kind: k.Name, Min: s.count}}}
	lamp := ""
	if taskType == TypeLookAtObjInLight {
		lamp = scenes.KindDeskLamp
		if room == scenes.RoomLivingRoom && rng.IntN(2) == 0 {
			lamp = scenes.KindFloorLamp
		}
		cfg.Require = append(cfg.Require, scenes.KindCount{Kind: lamp, Min: 1})
	}
	h, err := scenes.GenerateHouse(rng, cfg)
	if err != nil {
		return nil, errRedraw // the room drawn cannot hold the kind
	}
	g := &Game{
		Type:      taskType,
		House:     h,
		Label:     tasks.LabelNone,
		StepLimit: StepLimit,
		phrasing:  rng.IntN(2),
		named:     k.Name,
		Goal:      Goal{Type: taskType, Kind: k.Name, Count: s.count, State: s.state, Lamp: lamp},
	}
	if taskType != TypeLookAtObjInLight {
		dests := s.destinations(h, k)
		if len(dests) == 0 {
			return nil, errRedraw
		}
		g.Goal.Dest = dests[rng.IntN(len(dests))]
		if !g.clearDestinations(rng, k.Name) {
			return nil, errRedraw
		}
	}
	g.render()
	return g, nil
}

// clearDestinations moves every item of kind away from receptacles of the
// goal's destination kind, to others that fit it, so that no game starts
// solved or half solved. It reports false when there is nowhere to move
// them.
func (g *Game) clearDestinations(rng *rand.Rand, kind string) bool {
	k, _ := scenes.KindOf(kind)
	h := g.House
	var elsewhere []int
	for r, rec := range h.Receptacles {
		if rec.Kind != g.Goal.Dest && k.Fits(rec.Kind) {
			elsewhere = append(elsewhere, r)
		}
	}
	for _, i := range h.ItemsOf(kind) {
		if h.Receptacles[h.Items[i].In].Kind != g.Goal.Dest {
			continue
		}
		if len(elsewhere) == 0 {
			return false
		}
		h.Items[i].In = elsewhere[rng.IntN(len(elsewhere))]
	}
	return true
}
