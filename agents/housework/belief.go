package housework

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Nowhere is the index of no receptacle and no item: the middle of the
// room, an empty hand, or an item whose place is not known.
const Nowhere = -1

// Belief is what the observations say of the house: the receptacles in the
// order the opening lists them, the items seen in the order first seen,
// where the agent is and what it holds. Nothing moves in the house but by
// the agent's hand, so what was seen stays true until the agent changes it.
type Belief struct {
	Receptacles []Receptacle
	Items       []Item
	At          int // receptacle index, or Nowhere
	Held        int // item index, or Nowhere
	// V04 is set once an observation shows ALFWorld 0.4's wording, whose
	// command for putting down is "move O to R".
	V04 bool

	recIx  map[string]int
	itemIx map[string]int
	// last is the receptacle the previous sentence spoke of, for "In it,
	// you see …"; examined the item "It belongs to …" speaks of.
	last, examined int
}

// Receptacle is a receptacle as the agent knows it.
type Receptacle struct {
	Name, Kind string
	// Explored is set once its contents have been seen; they stay known.
	Explored bool
	// Closed is set while it is seen shut; Opens once it has shown that it
	// opens (seen closed or open).
	Closed, Opens bool
	// Place is where it stands, once known: the loc of an arrival in
	// ALFWorld 0.3's words, or a place shared with others it was seen
	// facing with ("You are facing the cabinet 2, and cabinet 1."); 0
	// while not known.
	Place int
}

// Item is an object the agent has seen.
type Item struct {
	Name, Kind string
	In         int // receptacle index; Nowhere while held or when not known
	Hot        bool
	Cold       bool
	Clean      bool
	On         bool // a lamp switched on
	Color      string
	Owner      string
	Examined   bool
	// Described is set once "describe" has told its colour and owner.
	Described bool
}

// NewBelief starts a belief from the opening observation ("You are in
// the middle of a room. Looking quickly around you, you see a cabinet 2,
// …"), which lists the receptacles.
func NewBelief(opening string) *Belief {
	b := &Belief{At: Nowhere, Held: Nowhere, last: Nowhere, examined: Nowhere, recIx: map[string]int{}, itemIx: map[string]int{}}
	b.Observe("", opening)
	return b
}

// Clone returns an independent copy.
func (b *Belief) Clone() *Belief {
	c := *b
	c.Receptacles = append([]Receptacle(nil), b.Receptacles...)
	c.Items = append([]Item(nil), b.Items...)
	// maps.Clone copies a map's table whole, rather than entry by entry:
	// Decide clones a belief once a call when the trial has moved on (see
	// foldMemo).
	c.recIx, c.itemIx = maps.Clone(b.recIx), maps.Clone(b.itemIx)
	return &c
}

// Receptacle returns the index of the receptacle of that name.
func (b *Belief) Receptacle(name string) (int, bool) {
	i, ok := b.recIx[name]
	return i, ok
}

// Item returns the index of the item of that name.
func (b *Belief) Item(name string) (int, bool) {
	i, ok := b.itemIx[name]
	return i, ok
}

func (b *Belief) rec(name string) int {
	if i, ok := b.recIx[name]; ok {
		return i
	}
	b.Receptacles = append(b.Receptacles, Receptacle{Name: name, Kind: kindOf(name)})
	b.recIx[name] = len(b.Receptacles) - 1
	return len(b.Receptacles) - 1
}

func (b *Belief) item(name string) int {
	if i, ok := b.itemIx[name]; ok {
		return i
	}
	b.Items = append(b.Items, Item{Name: name, Kind: kindOf(name), In: Nowhere})
	b.itemIx[name] = len(b.Items) - 1
	return len(b.Items) - 1
}

// Effect is what one observation told.
type Effect struct {
	// Understood is false for an observation that says nothing the belief
	// can read: a failure ("Nothing happens." or a reason).
	Understood bool
	// Changed is set when the world changed: the agent moved, opened or
	// closed something, took, put, treated or switched something.
	Changed bool
}

// Observe folds one command and the observation it got into the belief.
// The command matters only for ALFWorld 0.3's arrivals ("You arrive at loc
// 12."), which do not name the receptacle.
func (b *Belief) Observe(command, obs string) Effect {
	var e Effect
	arriving := Nowhere // the receptacle an arrival reaches, once known
	arrived := false
	b.last = Nowhere
	if r, ok := b.bareArrival(command, obs); ok {
		// An arrival whose "You arrive at loc N. " a workflow cut off, as
		// the Reflexion authors' loop does: the place is not known, but
		// the agent stands at R and moved.
		arrived, arriving, e.Changed = true, r, true
	}
	for _, s := range sentences(obs) {
		if b.sentence(s, command, &e, &arrived, &arriving) {
			e.Understood = true
		}
	}
	if arrived && arriving != Nowhere {
		b.At = arriving
	}
	return e
}

// bareArrival reports the receptacle a "go to R" reached when its
// observation opens on R itself ("On the R, you see …", "The R is
// closed.") with no "You arrive at" before it.
func (b *Belief) bareArrival(command, obs string) (int, bool) {
	to, ok := strings.CutPrefix(normalize(command), "go to ")
	if !ok || strings.HasPrefix(obs, "You arrive at ") {
		return Nowhere, false
	}
	if !strings.HasPrefix(obs, "On the "+to+", you see ") && !strings.HasPrefix(obs, "The "+to+" is ") {
		return Nowhere, false
	}
	return b.rec(to), true
}

// sentence reads one sentence; it reports whether it understood it.
func (b *Belief) sentence(s, command string, e *Effect, arrived *bool, arriving *int) bool {
	switch {
	case strings.HasPrefix(s, "You arrive at "):
		*arrived = true
		e.Changed = true
		where := strings.TrimPrefix(s, "You arrive at ")
		if !strings.HasPrefix(where, "loc ") {
			b.V04 = true
			*arriving = b.rec(where)
		} else if to, ok := strings.CutPrefix(normalize(command), "go to "); ok {
			*arriving = b.rec(to)
			if loc, err := strconv.Atoi(strings.TrimPrefix(where, "loc ")); err == nil && loc > 0 {
				b.Receptacles[*arriving].Place = loc
			}
		}
		return true
	case strings.HasPrefix(s, "On the ") && strings.Contains(s, ", you see "):
		name, list, _ := strings.Cut(strings.TrimPrefix(s, "On the "), ", you see ")
		r := b.rec(name)
		b.Receptacles[r].Closed = false
		b.setContents(r, list)
		b.noteArrival(r, *arrived, arriving)
		return true
	case strings.HasPrefix(s, "The ") && strings.HasSuffix(s, " is closed"):
		r := b.rec(strings.TrimSuffix(strings.TrimPrefix(s, "The "), " is closed"))
		b.Receptacles[r].Closed, b.Receptacles[r].Opens = true, true
		b.noteArrival(r, *arrived, arriving)
		return true
	case strings.HasPrefix(s, "The ") && strings.HasSuffix(s, " is open"):
		r := b.rec(strings.TrimSuffix(strings.TrimPrefix(s, "The "), " is open"))
		b.Receptacles[r].Closed, b.Receptacles[r].Opens = false, true
		b.last = r
		b.noteArrival(r, *arrived, arriving)
		return true
	case strings.HasPrefix(s, "In it, you see "):
		if b.last == Nowhere {
			return false
		}
		b.setContents(b.last, strings.TrimPrefix(s, "In it, you see "))
		return true
	case strings.HasPrefix(s, "You open the "):
		r := b.rec(strings.TrimPrefix(s, "You open the "))
		b.Receptacles[r].Closed, b.Receptacles[r].Opens = false, true
		b.last = r
		e.Changed = true
		return true
	case strings.HasPrefix(s, "You close the "):
		r := b.rec(strings.TrimPrefix(s, "You close the "))
		b.Receptacles[r].Closed, b.Receptacles[r].Opens = true, true
		e.Changed = true
		return true
	case strings.HasPrefix(s, "You pick up the "):
		obj, from, ok := strings.Cut(strings.TrimPrefix(s, "You pick up the "), " from the ")
		if !ok {
			return false
		}
		b.rec(from)
		b.hold(b.item(obj))
		e.Changed = true
		return true
	case strings.HasPrefix(s, "You put the "), strings.HasPrefix(s, "You move the "):
		var obj, to string
		var ok bool
		if rest, put := strings.CutPrefix(s, "You put the "); put {
			obj, to, ok = strings.Cut(rest, " in/on the ")
		} else {
			b.V04 = true
			obj, to, ok = strings.Cut(strings.TrimPrefix(s, "You move the "), " to the ")
		}
		if !ok {
			return false
		}
		i := b.item(obj)
		if b.Held == i {
			b.Held = Nowhere
		}
		b.Items[i].In = b.rec(to)
		e.Changed = true
		return true
	case strings.HasPrefix(s, "You heat the "), strings.HasPrefix(s, "You cool the "), strings.HasPrefix(s, "You clean the "):
		verb, rest, _ := strings.Cut(strings.TrimPrefix(s, "You "), " the ")
		obj, _, ok := strings.Cut(rest, " using the ")
		if !ok {
			return false
		}
		it := &b.Items[b.item(obj)]
		switch verb {
		case "heat":
			it.Hot, it.Cold = true, false
		case "cool":
			it.Cold, it.Hot = true, false
		default:
			it.Clean = true
		}
		e.Changed = true
		return true
	case strings.HasPrefix(s, "You turn on the "), strings.HasPrefix(s, "You turn off the "):
		on := strings.HasPrefix(s, "You turn on the ")
		name := strings.TrimPrefix(strings.TrimPrefix(s, "You turn on the "), "You turn off the ")
		b.Items[b.item(name)].On = on
		e.Changed = true
		return true
	case strings.HasPrefix(s, "This is a normal "):
		// A movable receptacle examined: ALFWorld says nothing of its state.
		name := strings.TrimPrefix(s, "This is a normal ")
		if !isName(name) {
			return false
		}
		b.Items[b.item(name)].Examined = true
		return true
	case strings.HasPrefix(s, "This is a "):
		return b.examine(strings.TrimPrefix(s, "This is a "))
	case strings.HasPrefix(s, "There's nothing special about "):
		i := b.item(strings.TrimPrefix(s, "There's nothing special about "))
		it := &b.Items[i]
		it.Examined, it.Hot, it.Cold, it.Clean = true, false, false, false
		return true
	case strings.HasPrefix(s, "The ") && (strings.HasSuffix(s, " has no colour or owner to tell it by") || strings.HasSuffix(s, " has no colour to tell it by")):
		name, _, _ := strings.Cut(strings.TrimPrefix(s, "The "), " has no colour")
		if !isName(name) {
			return false
		}
		i := b.item(name)
		b.Items[i].Described, b.Items[i].Color = true, ""
		b.examined = i
		return true
	case strings.HasPrefix(s, "The ") && strings.Contains(s, " is "):
		// "The mug 2 is green.": what describe tells.
		name, color, _ := strings.Cut(strings.TrimPrefix(s, "The "), " is ")
		if !isName(name) || !objectKind(kindOf(name)) || strings.Contains(color, " ") {
			return false
		}
		i := b.item(name)
		b.Items[i].Described, b.Items[i].Color = true, color
		b.examined = i
		return true
	case strings.HasPrefix(s, "It belongs to "):
		if b.examined == Nowhere {
			return false
		}
		b.Items[b.examined].Owner = strings.TrimPrefix(s, "It belongs to ")
		return true
	case strings.HasPrefix(s, "This ") && (strings.HasSuffix(s, " is on") || strings.HasSuffix(s, " is off")):
		name, state, _ := strings.Cut(strings.TrimPrefix(s, "This "), " is ")
		if !isName(name) {
			return false
		}
		i := b.item(name)
		b.Items[i].On, b.Items[i].Examined = state == "on", true
		return true
	case strings.HasPrefix(s, "You are carrying: a "):
		b.hold(b.item(strings.TrimPrefix(s, "You are carrying: a ")))
		return true
	case s == "You are not carrying anything":
		if b.Held != Nowhere {
			b.Items[b.Held].In = Nowhere
			b.Held = Nowhere
		}
		return true
	case strings.HasPrefix(s, "You are facing the "):
		// Every receptacle named stands at the agent's place.
		names := strings.Split(strings.ReplaceAll(strings.TrimPrefix(s, "You are facing the "), ", and ", ", "), ", ")
		if b.At == Nowhere || !slices.Contains(names, b.Receptacles[b.At].Name) {
			b.At = b.rec(names[0])
		}
		place := b.Receptacles[b.At].Place
		if place == 0 {
			place = -1 - b.At // a place known only as shared
		}
		for _, n := range names {
			b.Receptacles[b.rec(n)].Place = place
		}
		return true
	case s == "You are in the middle of a room":
		b.At = Nowhere
		return true
	case strings.HasPrefix(s, "Looking quickly around you, you see "):
		for _, name := range list(strings.TrimPrefix(s, "Looking quickly around you, you see ")) {
			b.rec(name)
		}
		return true
	case s == "Next to it, you see nothing", s == "OK":
		return true
	}
	return false
}

// noteArrival records where an arrival reached, when its first sentence
// did not say.
func (b *Belief) noteArrival(r int, arrived bool, arriving *int) {
	if arrived && *arriving == Nowhere {
		*arriving = r
	}
}

func (b *Belief) hold(i int) {
	if b.Held != Nowhere && b.Held != i {
		b.Items[b.Held].In = Nowhere // it went somewhere unseen
	}
	b.Held = i
	b.Items[i].In = Nowhere
}

// samePlace reports whether receptacles a and b are known to stand at one
// place.
func (b *Belief) samePlace(a, c int) bool {
	if a == Nowhere || c == Nowhere {
		return false
	}
	return a == c || b.Receptacles[a].Place != 0 && b.Receptacles[a].Place == b.Receptacles[c].Place
}

// examine reads "hot and clean apple 1": state words and the name, in
// ALFWorld's words, which say nothing of colour.
func (b *Belief) examine(desc string) bool {
	ws := strings.Fields(desc)
	if len(ws) < 2 || !isName(ws[len(ws)-2]+" "+ws[len(ws)-1]) {
		return false
	}
	i := b.item(ws[len(ws)-2] + " " + ws[len(ws)-1])
	it := &b.Items[i]
	it.Examined, it.Hot, it.Cold, it.Clean = true, false, false, false
	for _, w := range ws[:len(ws)-2] {
		switch w {
		case "hot":
			it.Hot = true
		case "cool", "cold":
			it.Cold = true
		case "clean":
			it.Clean = true
		}
	}
	return true
}

// setContents records what a receptacle holds; items believed there and
// not listed have gone somewhere unseen.
func (b *Belief) setContents(r int, listed string) {
	b.Receptacles[r].Explored = true
	names := list(listed)
	for i := range b.Items {
		if b.Items[i].In == r {
			b.Items[i].In = Nowhere
		}
	}
	for _, n := range names {
		i := b.item(n)
		if b.Held == i {
			b.Held = Nowhere
		}
		b.Items[i].In = r
	}
}

// list reads "a apple 1, a egg 2, and a mug 1" or "nothing".
func list(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || s == "nothing" {
		return nil
	}
	var out []string
	for _, part := range strings.Split(s, ", ") {
		part = strings.TrimPrefix(part, "and ")
		for _, p := range strings.Split(part, " and ") {
			p = strings.TrimSpace(p)
			p = strings.TrimPrefix(p, "an ")
			p = strings.TrimPrefix(p, "a ")
			if isName(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// sentences splits an observation at full stops and line ends, dropping
// the "Your task is to: …" line an opening ends with.
func sentences(obs string) []string {
	var out []string
	for _, line := range strings.Split(obs, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "Your task is to:") {
			continue
		}
		for _, s := range strings.Split(line, ". ") {
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "."))
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// Seen returns the names of the items seen so far, in the order first
// seen.
func (b *Belief) Seen() []string {
	out := make([]string, len(b.Items))
	for i, it := range b.Items {
		out[i] = it.Name
	}
	return out
}
