package scenes

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Nowhere is the index of no receptacle and no item: the agent's place in
// the middle of the room, its empty hand, the receptacle of a held item.
const Nowhere = -1

// House is the state of a household world as plain data: the receptacles,
// the items in or on them, and the agent's place and hand. Indices tie it
// together, so copying it is cheap and comparing two states is comparing
// values.
type House struct {
	Rooms []string
	// Receptacles in the order a look around the room lists them.
	Receptacles []Receptacle
	// Items, in no order that matters: [House.Contents] lists a
	// receptacle's in ALFWorld's order.
	Items []Item
	At    int // index of the receptacle the agent is at, or Nowhere
	Held  int // index of the item in the agent's hand, or Nowhere
}

// Receptacle is one place of the house that the agent can go to.
type Receptacle struct {
	Name string // kind and number: "cabinet 3"
	Kind string
	Room string
	// Loc is the place the receptacle stands at, the number ALFWorld 0.3
	// reports on arrival ("You arrive at loc 12."). Receptacles with the
	// same Loc stand at one place, as a stack of cabinets does in ALFWorld:
	// going from one to the other goes nowhere, and what is done at one
	// can be done at the others. It is drawn, not derived from the name.
	Loc int
	// Openable receptacles open and close; the others, even cabinets and
	// drawers, show what is on them at once ("On the cabinet 4, you see
	// nothing."). Only a kind that may open ([Kind.Openable]) can be.
	Openable bool
	Open     bool // meaningful for openable receptacles only
}

// Item is one object of the house.
type Item struct {
	Name  string // kind and number: "mug 2"
	Kind  string
	In    int // index of the receptacle it is in or on, or Nowhere while held
	Hot   bool
	Cold  bool
	Clean bool
	On    bool // a lamp that is switched on
	Color string
	Owner string
}

// HouseConfig says what kind of house to generate.
type HouseConfig struct {
	// Rooms to furnish, in order; none means one kitchen.
	Rooms []string
	// Require at least this many items of these kinds.
	Require []KindCount
	// Exclude these object kinds altogether.
	Exclude []string
}

// KindCount is a number of items of one kind.
type KindCount struct {
	Kind string
	Min  int
}

// GenerateHouse furnishes the rooms of cfg from the knowledge table,
// drawing only from rng: how many receptacles of each kind, which of the
// cabinets and drawers open and which share a place, which objects, where
// they lie, their colours and owners, and the location numbers.
// Receptacles are listed by kind, then by number from the highest, as
// ALFWorld's room descriptions list them. Items are numbered per kind in
// the order they are drawn.
func GenerateHouse(rng *rand.Rand, cfg HouseConfig) (*House, error) {
	rooms := cfg.Rooms
	if len(rooms) == 0 {
		rooms = []string{RoomKitchen}
	}
	if err := checkHouseConfig(rooms, cfg); err != nil {
		return nil, err
	}
	h := &House{Rooms: slices.Clone(rooms), At: Nowhere, Held: Nowhere}

	counts := map[string]int{}
	var places []int // the place of each receptacle, before numbering
	nPlaces := 0
	for _, room := range rooms {
		for i := range kindTable {
			k := &kindTable[i]
			for _, c := range k.Counts {
				if c.Room != room {
					continue
				}
				for j := range c.Choices[rng.IntN(len(c.Choices))] {
					counts[k.Name]++
					r := Receptacle{
						Name:     k.Name + " " + strconv.Itoa(counts[k.Name]),
						Kind:     k.Name,
						Room:     room,
						Openable: k.Openable,
					}
					place := nPlaces
					if shelved[k.Name] {
						// Some of ALFWorld's cabinets and drawers do not open,
						// and a few stand at the place of the one before.
						r.Openable = rng.Float64() >= openShelfRate
						if j > 0 && rng.Float64() < sharedPlaceRate {
							place = places[len(places)-1]
						}
					}
					if place == nPlaces {
						nPlaces++
					}
					places = append(places, place)
					h.Receptacles = append(h.Receptacles, r)
				}
			}
		}
	}
	// Number the places in a drawn order, as ALFWorld's locations are.
	locs := rng.Perm(nPlaces)
	for i := range h.Receptacles {
		h.Receptacles[i].Loc = locs[places[i]] + 1
	}
	slices.SortStableFunc(h.Receptacles, func(a, b Receptacle) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return -cmp.Compare(nameNumber(a.Name), nameNumber(b.Name))
	})

	excluded := func(kind string) bool { return slices.Contains(cfg.Exclude, kind) }
	for _, room := range rooms {
		for i := range kindTable {
			k := &kindTable[i]
			if k.Receptacle || !k.FoundIn(room) || excluded(k.Name) {
				continue
			}
			for range rng.IntN(k.Max + 1) {
				h.addDrawn(rng, k, room)
			}
		}
	}
	for _, req := range cfg.Require {
		k := kindRef(req.Kind)
		for have := len(h.ItemsOf(req.Kind)); have < req.Min; have++ {
			if !h.addDrawn(rng, k, "") {
				return nil, fmt.Errorf("generating a house of %v: no receptacle there can hold a %s", rooms, req.Kind)
			}
		}
	}
	h.numberItems()
	return h, nil
}

// The kinds of receptacle that ALFWorld sometimes builds as open shelves
// or stacks at one place, and how often. In the 18 rooms of the public
// ReAct transcripts, 3 of the 25 cabinets and drawers visited do not open
// ("On the cabinet 4, you see nothing.") and one pair of cabinets stands
// at one place ("You are facing the cabinet 2, and cabinet 1.").
var shelved = map[string]bool{"cabinet": true, "drawer": true}

const (
	openShelfRate   = 3.0 / 25
	sharedPlaceRate = 1.0 / 25
)

func checkHouseConfig(rooms []string, cfg HouseConfig) error {
	for i, r := range rooms {
		if !slices.Contains(HouseRooms(), r) {
			return fmt.Errorf("house config: unknown room %q (want one of %v)", r, HouseRooms())
		}
		if slices.Contains(rooms[:i], r) {
			return fmt.Errorf("house config: room %q listed twice", r)
		}
	}
	for _, req := range cfg.Require {
		k := kindRef(req.Kind)
		switch {
		case k == nil:
			return fmt.Errorf("house config: required kind %q is not in the knowledge table", req.Kind)
		case k.Receptacle:
			return fmt.Errorf("house config: required kind %q is a receptacle; only objects can be required", req.Kind)
		case slices.Contains(cfg.Exclude, req.Kind):
			return fmt.Errorf("house config: kind %q is both required and excluded", req.Kind)
		case !slices.ContainsFunc(rooms, k.FoundIn):
			return fmt.Errorf("house config: required kind %q is found in none of %v", req.Kind, rooms)
		}
	}
	for _, ex := range cfg.Exclude {
		if kindRef(ex) == nil {
			return fmt.Errorf("house config: excluded kind %q is not in the knowledge table", ex)
		}
	}
	return nil
}

// addDrawn adds an unnamed item of kind k to a receptacle drawn among
// those of room (any room when room is "") that can hold it.
func (h *House) addDrawn(rng *rand.Rand, k *Kind, room string) bool {
	var fits []int
	for i, r := range h.Receptacles {
		if (room == "" && k.FoundIn(r.Room) || r.Room == room) && k.Fits(r.Kind) {
			fits = append(fits, i)
		}
	}
	if len(fits) == 0 {
		return false
	}
	it := Item{Kind: k.Name, In: fits[rng.IntN(len(fits))]}
	if len(k.Colors) > 0 {
		it.Color = k.Colors[rng.IntN(len(k.Colors))]
	}
	if k.Owned {
		it.Owner = owners[rng.IntN(len(owners))]
	}
	h.Items = append(h.Items, it)
	return true
}

// numberItems names the unnamed items, each kind counting on from its
// highest number so far, in slice order.
func (h *House) numberItems() {
	next := map[string]int{}
	for _, it := range h.Items {
		if it.Name != "" {
			next[it.Kind] = max(next[it.Kind], nameNumber(it.Name))
		}
	}
	for i := range h.Items {
		if h.Items[i].Name == "" {
			next[h.Items[i].Kind]++
			h.Items[i].Name = h.Items[i].Kind + " " + strconv.Itoa(next[h.Items[i].Kind])
		}
	}
}

// nameNumber returns the number of a name such as "cabinet 12", or 0.
func nameNumber(name string) int {
	_, num, ok := strings.Cut(name, " ")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0
	}
	return n
}

// Clone returns a deep copy of h.
func (h *House) Clone() *House {
	c := *h
	c.Rooms = slices.Clone(h.Rooms)
	c.Receptacles = slices.Clone(h.Receptacles)
	c.Items = slices.Clone(h.Items)
	return &c
}

// ReceptacleIndex returns the index of the receptacle with the given name.
func (h *House) ReceptacleIndex(name string) (int, bool) {
	for i, r := range h.Receptacles {
		if r.Name == name {
			return i, true
		}
	}
	return Nowhere, false
}

// ItemIndex returns the index of the item with the given name.
func (h *House) ItemIndex(name string) (int, bool) {
	for i, it := range h.Items {
		if it.Name == name {
			return i, true
		}
	}
	return Nowhere, false
}

// ItemsOf returns the indices of the items of a kind, in listing order.
func (h *House) ItemsOf(kind string) []int {
	var out []int
	for i, it := range h.Items {
		if it.Kind == kind {
			out = append(out, i)
		}
	}
	return out
}

// ReceptaclesOf returns the indices of the receptacles of a kind, in
// listing order.
func (h *House) ReceptaclesOf(kind string) []int {
	var out []int
	for i, r := range h.Receptacles {
		if r.Kind == kind {
			out = append(out, i)
		}
	}
	return out
}

// Closed reports whether receptacle r must be opened before anything can be
// seen in it, taken from it or put into it.
func (h *House) Closed(r int) bool {
	return h.Receptacles[r].Openable && !h.Receptacles[r].Open
}

// SamePlace reports whether receptacles a and b stand at one place; a
// receptacle is at its own place, Nowhere at none.
func (h *House) SamePlace(a, b int) bool {
	if a == Nowhere || b == Nowhere {
		return false
	}
	return a == b || h.Receptacles[a].Loc == h.Receptacles[b].Loc
}

// Contents appends to dst the items in or on receptacle r in the order
// ALFWorld lists them, by kind and then by number from the highest ("a
// bowl 2, a bowl 1, a bread 1"), and returns it.
func (h *House) Contents(dst []int, r int) []int {
	n := len(dst)
	for i := range h.Items {
		if h.Items[i].In == r {
			dst = append(dst, i)
		}
	}
	slices.SortFunc(dst[n:], func(a, b int) int {
		if c := cmp.Compare(h.Items[a].Kind, h.Items[b].Kind); c != 0 {
			return c
		}
		return -cmp.Compare(nameNumber(h.Items[a].Name), nameNumber(h.Items[b].Name))
	})
	return dst
}

// Hidden reports whether item i lies in a closed receptacle.
func (h *House) Hidden(i int) bool {
	in := h.Items[i].In
	return in != Nowhere && h.Closed(in)
}

// AddItem puts a new item of kind into receptacle r, numbered after the
// items of that kind already in the house, and returns its index. It is
// for task generators and perturbations; the kind need not fit r.
func (h *House) AddItem(kind string, r int) (int, error) {
	k := kindRef(kind)
	switch {
	case k == nil:
		return Nowhere, fmt.Errorf("adding an item: kind %q is not in the knowledge table", kind)
	case k.Receptacle:
		return Nowhere, fmt.Errorf("adding an item: %q is a receptacle kind", kind)
	case r < 0 || r >= len(h.Receptacles):
		return Nowhere, fmt.Errorf("adding a %s: receptacle index %d out of range [0, %d)", kind, r, len(h.Receptacles))
	}
	h.Items = append(h.Items, Item{Kind: kind, In: r})
	h.numberItems()
	return len(h.Items) - 1, nil
}

// RemoveItem deletes item i; later indices shift down by one.
func (h *House) RemoveItem(i int) {
	h.Items = slices.Delete(h.Items, i, i+1)
	switch {
	case h.Held == i:
		h.Held = Nowhere
	case h.Held > i:
		h.Held--
	}
}

// ErrHouse marks a house whose data does not hold together.
var ErrHouse = errors.New("inconsistent house")

// Validate checks that the house holds together: known kinds, unique
// names, indices in range, places numbered from 1, the held item and only
// it in no receptacle, open flags only on openable receptacles.
func (h *House) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrHouse, fmt.Sprintf(format, args...))
	}
	seen := make(map[string]bool, len(h.Receptacles)+len(h.Items))
	for i, r := range h.Receptacles {
		k := kindRef(r.Kind)
		switch {
		case k == nil || !k.Receptacle:
			return bad("receptacle %d (%q) has kind %q, which is no receptacle kind", i, r.Name, r.Kind)
		case !strings.HasPrefix(r.Name, r.Kind+" ") || nameNumber(r.Name) < 1:
			return bad("receptacle %d is named %q; want %q and a number", i, r.Name, r.Kind)
		case seen[r.Name]:
			return bad("receptacle name %q is used twice", r.Name)
		case r.Openable && !k.Openable:
			return bad("receptacle %q is openable, but a %s never opens", r.Name, r.Kind)
		case r.Open && !r.Openable:
			return bad("receptacle %q is open but cannot be opened", r.Name)
		case r.Loc < 1:
			return bad("receptacle %q stands at place %d; places are numbered from 1", r.Name, r.Loc)
		}
		seen[r.Name] = true
	}
	for i, it := range h.Items {
		k := kindRef(it.Kind)
		switch {
		case k == nil || k.Receptacle:
			return bad("item %d (%q) has kind %q, which is no object kind", i, it.Name, it.Kind)
		case !strings.HasPrefix(it.Name, it.Kind+" ") || nameNumber(it.Name) < 1:
			return bad("item %d is named %q; want %q and a number", i, it.Name, it.Kind)
		case seen[it.Name]:
			return bad("name %q is used twice", it.Name)
		case it.In == Nowhere && h.Held != i:
			return bad("item %q is in no receptacle and not held", it.Name)
		case it.In != Nowhere && h.Held == i:
			return bad("item %q is held and in %d at once", it.Name, it.In)
		case it.In < Nowhere || it.In >= len(h.Receptacles):
			return bad("item %q is in receptacle %d, out of range [0, %d)", it.Name, it.In, len(h.Receptacles))
		case it.Hot && it.Cold:
			return bad("item %q is hot and cold at once", it.Name)
		}
		seen[it.Name] = true
	}
	if h.At < Nowhere || h.At >= len(h.Receptacles) {
		return bad("the agent is at receptacle %d, out of range [0, %d)", h.At, len(h.Receptacles))
	}
	if h.Held < Nowhere || h.Held >= len(h.Items) {
		return bad("the agent holds item %d, out of range [0, %d)", h.Held, len(h.Items))
	}
	return nil
}
