package textworld

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Grammars: the wording of arrivals and of putting an object down.
const (
	// GrammarV03 is ALFWorld 0.3's, the one the published ReAct and
	// Reflexion prompts show: "You arrive at loc 12. On the …" and
	// "put O in/on R" → "You put the O in/on the R.".
	GrammarV03 = "v0.3"
	// GrammarV04 is ALFWorld 0.4's: "You arrive at countertop 1. On the …"
	// and "move O to R" → "You move the O to the R.".
	GrammarV04 = "v0.4"
)

// FeedbackExplain makes a command that fails say why, instead of
// ALFWorld's "Nothing happens.".
const FeedbackExplain = "explain"

// NothingHappens is ALFWorld's answer to any command that fails.
const NothingHappens = "Nothing happens."

// Options select the wording of the game's texts. The zero value is
// ALFWorld 0.3's wording with its silent failures.
type Options struct {
	Grammar  string // GrammarV03 (also "") or GrammarV04
	Feedback string // "" for "Nothing happens.", or FeedbackExplain
}

// Game is one play of a household: the state, the commands that change it
// and the texts that describe it. It is not safe for concurrent use; games
// made by [New] from the same house share nothing mutable.
type Game struct {
	opts    Options
	v04     bool
	explain bool
	start   *scenes.House // the state Reset returns to
	h       *scenes.House
	steps   int
	ix      *index
}

// index is what New derives once from a house, shared by clones and
// never written after.
type index struct {
	rec      map[string]int
	item     map[string]int
	recKind  []scenes.Kind
	itemKind []scenes.Kind
}

// New starts a game on a copy of house; the caller's house is not
// touched. It fails on unknown options or a house that does not hold
// together.
func New(house *scenes.House, opts Options) (*Game, error) {
	g := &Game{opts: opts}
	switch opts.Grammar {
	case "", GrammarV03:
	case GrammarV04:
		g.v04 = true
	default:
		return nil, fmt.Errorf("household: unknown grammar %q (want %q or %q)", opts.Grammar, GrammarV03, GrammarV04)
	}
	switch opts.Feedback {
	case "":
	case FeedbackExplain:
		g.explain = true
	default:
		return nil, fmt.Errorf("household: unknown feedback %q (want \"\" or %q)", opts.Feedback, FeedbackExplain)
	}
	if house == nil {
		return nil, fmt.Errorf("household: no house given")
	}
	if err := house.Validate(); err != nil {
		return nil, fmt.Errorf("household: %w", err)
	}
	ix := &index{
		rec:      make(map[string]int, len(house.Receptacles)),
		item:     make(map[string]int, len(house.Items)),
		recKind:  make([]scenes.Kind, len(house.Receptacles)),
		itemKind: make([]scenes.Kind, len(house.Items)),
	}
	for i, r := range house.Receptacles {
		ix.rec[r.Name] = i
		ix.recKind[i], _ = scenes.KindOf(r.Kind)
	}
	for i, it := range house.Items {
		ix.item[it.Name] = i
		ix.itemKind[i], _ = scenes.KindOf(it.Kind)
	}
	g.ix = ix
	g.start = house.Clone()
	g.h = house.Clone()
	return g, nil
}

// Options returns the options the game was made with.
func (g *Game) Options() Options { return g.opts }

// Reset puts the house back as it was given to New, with the agent in the
// middle of the room and nothing in hand, sets the step count to zero,
// and returns the room's description ("You are in the middle of a room.
// Looking quickly around you, you see …"). The task's sentence is the task
// layer's to add.
func (g *Game) Reset() string {
	g.h.Rooms = append(g.h.Rooms[:0], g.start.Rooms...)
	g.h.Receptacles = append(g.h.Receptacles[:0], g.start.Receptacles...)
	g.h.Items = append(g.h.Items[:0], g.start.Items...)
	g.h.At, g.h.Held = scenes.Nowhere, scenes.Nowhere
	g.steps = 0
	var b strings.Builder
	g.writeLook(&b)
	return b.String()
}

// State returns the current state. It is the game's own: read it, do not
// change it. It stays the same pointer across steps and resets.
func (g *Game) State() *scenes.House { return g.h }

// Steps returns how many commands Step has taken since the last reset,
// failed ones and thoughts included.
func (g *Game) Steps() int { return g.steps }

// Clone returns an independent copy of the game in its current state.
func (g *Game) Clone() *Game {
	c := *g
	c.h = g.h.Clone()
	return &c
}

// Step carries out one command and returns the observation. Every string
// is a command: one that cannot be parsed or carried out changes nothing
// and gets "Nothing happens." (or the reason, with FeedbackExplain). Each
// call counts as a step.
func (g *Game) Step(cmd string) string {
	g.steps++
	c, err := Parse(cmd)
	if err != nil {
		if !g.explain {
			return NothingHappens
		}
		return err.Error() + "."
	}
	if c.Verb == VerbPut && g.v04 && strings.HasPrefix(normalize(cmd), "put ") {
		// ALFWorld 0.4's grammar puts down with "move" alone
		// (alfred.twl2, action PutObject).
		return g.fail("In this grammar an object is put down with \"move OBJECT to RECEPTACLE\".")
	}
	return g.do(c)
}

func (g *Game) do(c Command) string {
	switch c.Verb {
	case VerbGoTo:
		return g.goTo(c.Target)
	case VerbOpen:
		return g.open(c.Target, true)
	case VerbClose:
		return g.open(c.Target, false)
	case VerbTake:
		return g.take(c.Object, c.Target)
	case VerbPut:
		return g.put(c.Object, c.Target)
	case VerbUse:
		return g.use(c.Object)
	case VerbHeat, VerbCool, VerbClean:
		return g.treat(c.Verb, c.Object, c.Target)
	case VerbExamine:
		return g.examine(c.Object)
	case VerbInventory:
		if g.h.Held == scenes.Nowhere {
			return "You are not carrying anything."
		}
		return "You are carrying: a " + g.h.Items[g.h.Held].Name + "."
	case VerbLook:
		var b strings.Builder
		g.writeLook(&b)
		return b.String()
	case VerbHelp:
		// Only ALFWorld 0.4's grammar has a help action (alfred.twl2,
		// action help); 0.3 answers it as any unknown command.
		if g.v04 {
			return helpV04
		}
		return g.fail("This grammar has no help command.")
	case VerbThink:
		return "OK."
	case VerbDescribe:
		return g.describeItem(c.Object)
	}
	return g.fail("no command given")
}

func (g *Game) fail(reason string) string {
	if g.explain {
		return reason
	}
	return NothingHappens
}

func (g *Game) goTo(name string) string {
	r, ok := g.ix.rec[name]
	if !ok {
		return g.fail(g.noReceptacle(name))
	}
	if g.h.SamePlace(g.h.At, r) {
		// ALFWorld's GotoLocation moves between places, so going to where
		// one stands, or to a receptacle standing there too, does nothing.
		return g.fail("You are already at the " + name + ".")
	}
	g.h.At = r
	var b strings.Builder
	b.Grow(160)
	b.WriteString("You arrive at ")
	if g.v04 {
		b.WriteString(name)
	} else {
		b.WriteString("loc ")
		b.WriteString(strconv.Itoa(g.h.Receptacles[r].Loc))
	}
	b.WriteString(". ")
	g.writeReceptacle(&b, r)
	return b.String()
}

func (g *Game) open(name string, open bool) string {
	r, ok := g.ix.rec[name]
	switch {
	case !ok:
		return g.fail(g.noReceptacle(name))
	case !g.h.SamePlace(g.h.At, r):
		return g.fail("You are not at the " + name + "; go to it first.")
	case !g.h.Receptacles[r].Openable:
		if open {
			return g.fail("The " + name + " cannot be opened.")
		}
		return g.fail("The " + name + " cannot be closed.")
	case g.h.Receptacles[r].Open == open:
		if open {
			return g.fail("The " + name + " is already open.")
		}
		return g.fail("The " + name + " is already closed.")
	}
	g.h.Receptacles[r].Open = open
	if !open {
		return "You close the " + name + "."
	}
	var b strings.Builder
	b.Grow(160)
	b.WriteString("You open the ")
	b.WriteString(name)
	b.WriteString(". ")
	g.writeReceptacle(&b, r)
	return b.String()
}

func (g *Game) take(obj, from string) string {
	i, ok := g.ix.item[obj]
	if !ok {
		return g.fail(g.noItem(obj))
	}
	r, ok := g.ix.rec[from]
	switch {
	case !ok:
		return g.fail(g.noReceptacle(from))
	case !g.h.SamePlace(g.h.At, r):
		return g.fail("You are not at the " + from + "; go to it first.")
	case g.closed(r):
		return g.fail("The " + from + " is closed; open it first.")
	case g.h.Items[i].In != r:
		return g.fail("You see no " + obj + " in/on the " + from + ".")
	case !g.ix.itemKind[i].Pickupable:
		return g.fail("The " + obj + " cannot be picked up.")
	case g.h.Held != scenes.Nowhere:
		return g.fail("You are already carrying the " + g.h.Items[g.h.Held].Name + "; put it somewhere first.")
	}
	g.h.Items[i].In = scenes.Nowhere
	g.h.Held = i
	return "You pick up the " + obj + " from the " + from + "."
}

func (g *Game) put(obj, to string) string {
	i, ok := g.ix.item[obj]
	if !ok {
		return g.fail(g.noItem(obj))
	}
	r, ok := g.ix.rec[to]
	switch {
	case !ok:
		return g.fail(g.noReceptacle(to))
	case g.h.Held != i:
		return g.fail("You are not carrying the " + obj + ".")
	case !g.h.SamePlace(g.h.At, r):
		return g.fail("You are not at the " + to + "; go to it first.")
	case g.closed(r):
		return g.fail("The " + to + " is closed; open it first.")
	case !scenes.CanContain(g.h.Receptacles[r].Kind, g.h.Items[i].Kind):
		// ALFWorld's PutObject needs canContain (alfred.pddl), which its
		// VAL_RECEPTACLE_OBJECTS table fixes.
		return g.fail("A " + g.h.Items[i].Kind + " cannot go in or on a " + g.h.Receptacles[r].Kind + ".")
	}
	g.h.Items[i].In = r
	g.h.Held = scenes.Nowhere
	if g.v04 {
		return "You move the " + obj + " to the " + to + "."
	}
	return "You put the " + obj + " in/on the " + to + "."
}

func (g *Game) use(obj string) string {
	i, ok := g.ix.item[obj]
	switch {
	case !ok:
		return g.fail(g.noItem(obj))
	case !g.ix.itemKind[i].Toggleable:
		return g.fail("The " + obj + " has no switch.")
	case !g.h.SamePlace(g.h.At, g.h.Items[i].In):
		return g.fail("You see no " + obj + " here.")
	}
	// ALFWorld's ToggleObject (alfred.pddl) always leaves the lamp
	// toggled, and its feedback (alfred.twl2, toggleObject.feedback) reads
	// "You turn on" whenever it is: a lamp used twice stays on.
	g.h.Items[i].On = true
	return "You turn on the " + obj + "."
}

// treatment is what heating, cooling and cleaning need and say.
type treatment struct {
	with    string // the kind of receptacle that does it
	word    string // "heat"
	past    string // "heated"
	allowed func(scenes.Kind) bool
}

var treatments = map[Verb]treatment{
	VerbHeat:  {scenes.KindMicrowave, "heat", "heated", func(k scenes.Kind) bool { return k.Heatable }},
	VerbCool:  {scenes.KindFridge, "cool", "cooled", func(k scenes.Kind) bool { return k.Coolable }},
	VerbClean: {scenes.KindSinkBasin, "clean", "cleaned", func(k scenes.Kind) bool { return k.Cleanable }},
}

func (g *Game) treat(v Verb, obj, with string) string {
	t := treatments[v]
	i, ok := g.ix.item[obj]
	if !ok {
		return g.fail(g.noItem(obj))
	}
	r, ok := g.ix.rec[with]
	switch {
	case !ok:
		return g.fail(g.noReceptacle(with))
	case g.h.Held != i:
		return g.fail("You are not carrying the " + obj + ".")
	case !g.h.SamePlace(g.h.At, r):
		return g.fail("You are not at the " + with + "; go to it first.")
	case g.h.Receptacles[r].Kind != t.with:
		return g.fail("You can " + t.word + " things only with a " + t.with + ".")
	case !t.allowed(g.ix.itemKind[i]):
		return g.fail("The " + obj + " cannot be " + t.past + ".")
	}
	it := &g.h.Items[i]
	switch v {
	case VerbHeat:
		it.Hot, it.Cold = true, false
	case VerbCool:
		it.Cold, it.Hot = true, false
	case VerbClean:
		it.Clean = true
	}
	return "You " + t.word + " the " + obj + " using the " + with + "."
}

func (g *Game) examine(name string) string {
	if r, ok := g.ix.rec[name]; ok {
		if !g.h.SamePlace(g.h.At, r) {
			return g.fail("You are not at the " + name + "; go to it first.")
		}
		var b strings.Builder
		g.writeReceptacle(&b, r)
		return b.String()
	}
	i, failed := g.inReach(name)
	if i == scenes.Nowhere {
		return failed
	}
	return g.describe(i)
}

// inReach returns the index of the named object if it is in hand or in
// view, as examine and describe need; else Nowhere and what the failure
// says.
func (g *Game) inReach(name string) (int, string) {
	i, ok := g.ix.item[name]
	switch {
	case !ok:
		return scenes.Nowhere, g.fail(g.noItem(name))
	case g.h.Held != i && !g.visible(i):
		return scenes.Nowhere, g.fail("You see no " + name + " here.")
	}
	return i, ""
}

// describe is what examining an item says, in the words and the order of
// ALFWorld's examineObject.feedback (alfred.twl2): a movable receptacle
// first (nothing is ever in one here), then the treatments, then a lamp's
// switch.
func (g *Game) describe(i int) string {
	it := &g.h.Items[i]
	k := &g.ix.itemKind[i]
	switch {
	case scenes.MovableReceptacle(it.Kind):
		return "This is a normal " + it.Name + ". In it, you see nothing."
	case it.Clean && it.Hot:
		return "This is a hot and clean " + it.Name + "."
	case it.Clean && it.Cold:
		return "This is a cool and clean " + it.Name + "."
	case it.Hot:
		return "This is a hot " + it.Name + "."
	case it.Clean:
		return "This is a clean " + it.Name + "."
	case it.Cold:
		return "This is a cold " + it.Name + "."
	case k.Toggleable && it.On:
		return "This " + it.Name + " is on."
	case k.Toggleable:
		return "This " + it.Name + " is off."
	}
	return "There's nothing special about " + it.Name + "."
}

// describeItem answers "describe O": the colour and owner of an object in
// view or in hand, which ALFWorld's objects do not have.
func (g *Game) describeItem(name string) string {
	i, failed := g.inReach(name)
	if i == scenes.Nowhere {
		return failed
	}
	it := &g.h.Items[i]
	var b strings.Builder
	b.WriteString("The ")
	b.WriteString(it.Name)
	switch {
	case it.Color != "":
		b.WriteString(" is ")
		b.WriteString(it.Color)
		b.WriteString(".")
	case it.Owner == "":
		b.WriteString(" has no colour or owner to tell it by.")
		return b.String()
	default:
		b.WriteString(" has no colour to tell it by.")
	}
	if it.Owner != "" {
		b.WriteString(" It belongs to ")
		b.WriteString(it.Owner)
		b.WriteString(".")
	}
	return b.String()
}

// closed reports whether receptacle r is shut.
func (g *Game) closed(r int) bool { return g.h.Closed(r) }

// visible reports whether item i lies open to view at the agent's place.
func (g *Game) visible(i int) bool {
	in := g.h.Items[i].In
	return g.h.SamePlace(g.h.At, in) && !g.closed(in)
}

func (g *Game) noReceptacle(name string) string {
	if _, ok := g.ix.item[name]; ok {
		return "The " + name + " is not a receptacle."
	}
	return "There is no receptacle called \"" + clip(name) + "\" here."
}

func (g *Game) noItem(name string) string {
	if _, ok := g.ix.rec[name]; ok {
		return "The " + name + " is a receptacle, not an object."
	}
	return "There is no object called \"" + clip(name) + "\" here."
}

// writeReceptacle writes what one sees of receptacle r from in front of
// it, in ALFWorld's words.
func (g *Game) writeReceptacle(b *strings.Builder, r int) {
	name := g.h.Receptacles[r].Name
	if g.h.Receptacles[r].Openable {
		b.WriteString("The ")
		b.WriteString(name)
		if !g.h.Receptacles[r].Open {
			b.WriteString(" is closed.")
			return
		}
		b.WriteString(" is open. In it, you see ")
	} else {
		b.WriteString("On the ")
		b.WriteString(name)
		b.WriteString(", you see ")
	}
	g.writeContents(b, r)
	b.WriteString(".")
}

// writeContents lists the items in r in ALFWorld's order: "a apple 1,
// and a mug 2", or "nothing". ALFWorld writes "a" before every name, vowel
// or not.
func (g *Game) writeContents(b *strings.Builder, r int) {
	var buf [16]int
	in := g.h.Contents(buf[:0], r)
	if len(in) == 0 {
		b.WriteString("nothing")
		return
	}
	for k, i := range in {
		writeSeparator(b, k, len(in))
		b.WriteString("a ")
		b.WriteString(g.h.Items[i].Name)
	}
}

// writeSeparator writes what goes before the k-th of n listed names in
// TextWorld's lists: nothing, ", ", or ", and " before the last (also when
// there are two).
func writeSeparator(b *strings.Builder, k, n int) {
	switch {
	case k == 0:
	case k == n-1:
		b.WriteString(", and ")
	default:
		b.WriteString(", ")
	}
}

// writeLook describes where the agent is: the whole room from its middle,
// or the receptacle it faces.
func (g *Game) writeLook(b *strings.Builder) {
	if g.h.At != scenes.Nowhere {
		// Every receptacle at the place, in the room's listing order, as
		// ALFWorld's look-variations list them: "You are facing the
		// cabinet 2, and cabinet 1." Nothing lies on the floor here.
		b.WriteString("You are facing the ")
		n := 0
		for r := range g.h.Receptacles {
			if g.h.SamePlace(g.h.At, r) {
				n++
			}
		}
		k := 0
		for r := range g.h.Receptacles {
			if g.h.SamePlace(g.h.At, r) {
				writeSeparator(b, k, n)
				b.WriteString(g.h.Receptacles[r].Name)
				k++
			}
		}
		b.WriteString(". Next to it, you see nothing.")
		return
	}
	b.Grow(32 * len(g.h.Receptacles))
	b.WriteString("You are in the middle of a room. Looking quickly around you, you see ")
	n := len(g.h.Receptacles)
	if n == 0 {
		b.WriteString("nothing.")
		return
	}
	for i, r := range g.h.Receptacles {
		writeSeparator(b, i, n)
		b.WriteString("a ")
		b.WriteString(r.Name)
	}
	b.WriteString(".")
}

// helpV04 is ALFWorld 0.4's help text, as its grammar writes it
// (alfred.twl2, help.feedback), with its odd alignment and the slice
// command the household does not have.
const helpV04 = "\nAvailable commands:\n  look:                             look around your current location\n  inventory:                        check your current inventory\n  go to (receptacle):               move to a receptacle\n  open (receptacle):                open a receptacle\n  close (receptacle):               close a receptacle\n  take (object) from (receptacle):  take an object from a receptacle\n  move (object) to (receptacle):  place an object in or on a receptacle\n  examine (something):              examine a receptacle or an object\n  use (object):                     use an object\n  heat (object) with (receptacle):  heat an object using a receptacle\n  clean (object) with (receptacle): clean an object using a receptacle\n  cool (object) with (receptacle):  cool an object using a receptacle\n  slice (object) with (object):     slice an object using a sharp object\n"
