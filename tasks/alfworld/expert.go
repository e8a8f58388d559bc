package alfworld

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// grammarV04 is sim/textworld.GrammarV04, which this package cannot
// import; a test keeps the two equal.
const grammarV04 = "v0.4"

// Expert returns a shortest command sequence that takes the house from h
// to a state where goal holds, reading the whole state (where every object
// is, closed receptacles included). grammar chooses the words of putting
// down: "v0.4" gives "move O to R", anything else "put O in/on R".
//
// Why it is shortest. The world's rules leave a plan no freedom but these
// choices: which object(s) to use, which appliance treats it, which
// receptacle receives it (or which lamp lights it), and, for two objects
// or a lamp, in which order the key actions come. Once they are chosen,
// every plan must contain the key actions — take each object that is not
// already in hand or in place, treat it, put it, switch the lamp on — and,
// before each, a "go to" if the agent stands elsewhere (go to reaches any
// receptacle in one command, so distance never matters) and an "open" the
// first time a closed receptacle is used, and one "put" to free the hand
// if it holds something else. The planner emits exactly those commands and
// no others, so for each choice its plan is a lower bound on every plan
// making that choice; it tries every choice and keeps the least. Nothing
// else can shorten a plan: receptacles have no capacity, so moving other
// objects never helps, and closing, examining or looking change nothing a
// goal asks for. A test checks the lengths against breadth-first search
// over the engine itself.
func Expert(h *scenes.House, goal Goal, grammar string) ([]string, error) {
	if goal.Satisfied(h) {
		return []string{}, nil
	}
	p := &planner{h: h, goal: goal, v04: grammar == grammarV04}
	var matching []int
	for i := range h.Items {
		if goal.Matches(&h.Items[i]) {
			matching = append(matching, i)
		}
	}
	var appliances, dests, lamps []int
	if s, ok := specs[goal.Type]; ok && goal.State != "" {
		appliances = h.ReceptaclesOf(s.appliance)
	} else {
		appliances = []int{scenes.Nowhere}
	}
	if goal.Type == TypeLookAtObjInLight {
		lamps = h.ItemsOf(goal.Lamp)
	} else {
		dests = h.ReceptaclesOf(goal.Dest)
	}

	best, bestLen := choice{}, -1
	try := func(c choice) {
		if n := p.run(c, false); n >= 0 && (bestLen < 0 || n < bestLen) {
			best, bestLen = c, n
		}
	}
	switch {
	case goal.Type == TypeLookAtObjInLight:
		for _, i := range matching {
			for _, l := range lamps {
				try(choice{obj: i, lamp: l})
				try(choice{obj: i, lamp: l, lampFirst: true})
			}
		}
	case goal.Count >= 2:
		for _, d := range dests {
			for _, i := range matching {
				for _, j := range matching {
					if i != j {
						try(choice{obj: i, second: j, dest: d})
					}
				}
			}
		}
	default:
		for _, i := range matching {
			for _, a := range appliances {
				for _, d := range dests {
					try(choice{obj: i, appliance: a, dest: d})
				}
			}
		}
	}
	if bestLen < 0 {
		return nil, fmt.Errorf("household expert: the goal cannot be reached (%d %s, %d %s, %d %s)",
			len(matching), goal.what(), len(dests), orNone(goal.Dest), len(lamps), orNone(goal.Lamp))
	}
	p.run(best, true)
	return p.cmds, nil
}

// Expert is [Expert] on the game's house and goal.
func (g *Game) Expert(grammar string) ([]string, error) { return Expert(g.House, g.Goal, grammar) }

func orNone(kind string) string {
	if kind == "" {
		return "-"
	}
	return kind
}

// choice is one way of reaching a goal.
type choice struct {
	obj, second int // the objects used (second: for two objects)
	appliance   int // the receptacle that treats obj, or Nowhere
	dest        int // where the objects go
	lamp        int
	lampFirst   bool // switch the lamp on before fetching the object
}

// planner follows a choice over a light copy of the state: where the agent
// is, what it holds, which receptacles it has opened.
type planner struct {
	h      *scenes.House
	goal   Goal
	v04    bool
	emit   bool
	at     int
	held   int
	opened []int
	stuck  bool // a step of the choice cannot be carried out
	n      int
	cmds   []string
}

// run counts the commands of a choice, writing them when emit is set; -1
// means the choice does not reach the goal.
func (p *planner) run(c choice, emit bool) int {
	p.emit, p.at, p.held, p.opened, p.n, p.cmds, p.stuck = emit, p.h.At, p.h.Held, p.opened[:0], 0, nil, false
	switch {
	case p.goal.Type == TypeLookAtObjInLight:
		lampAt := p.h.Items[c.lamp].In
		if lampAt == scenes.Nowhere {
			return -1
		}
		if c.lampFirst {
			p.lightUp(c.lamp, lampAt)
			p.take(c.obj)
			p.goTo(lampAt)
		} else {
			p.take(c.obj)
			p.lightUp(c.lamp, lampAt)
		}
	case p.goal.Count >= 2:
		for _, i := range [2]int{c.obj, c.second} {
			if p.h.Items[i].In != c.dest {
				p.take(i)
				p.put(i, c.dest)
			}
		}
	default:
		p.take(c.obj)
		if !p.goal.treated(&p.h.Items[c.obj]) {
			if c.appliance == scenes.Nowhere {
				return -1
			}
			p.goTo(c.appliance)
			p.add(p.goal.verb(), " ", p.h.Items[c.obj].Name, " with ", p.h.Receptacles[c.appliance].Name)
		}
		p.put(c.obj, c.dest)
	}
	if p.stuck {
		return -1
	}
	return p.n
}

// add counts a command and, when emitting, writes it from its words;
// counting alone builds no strings.
func (p *planner) add(words ...string) {
	p.n++
	if p.emit {
		p.cmds = append(p.cmds, strings.Join(words, ""))
	}
}

// goTo goes to r unless the agent stands at its place already (ALFWorld
// has several receptacles at one place, and going between them does
// nothing).
func (p *planner) goTo(r int) {
	if !p.h.SamePlace(p.at, r) {
		p.at = r
		p.add("go to ", p.h.Receptacles[r].Name)
	}
}

func (p *planner) open(r int) {
	if p.h.Closed(r) && !slices.Contains(p.opened, r) {
		p.opened = append(p.opened, r)
		p.add("open ", p.h.Receptacles[r].Name)
	}
}

// take gets item i in hand, freeing the hand where i lies if it holds
// something else.
func (p *planner) take(i int) {
	if p.held == i {
		return
	}
	r := p.h.Items[i].In
	if p.held != scenes.Nowhere && !scenes.CanContain(p.h.Receptacles[r].Kind, p.h.Items[p.held].Kind) {
		// The hand is freed where i lies if that can hold what it holds;
		// else first somewhere that can, where the agent stands if it may.
		free := p.freeAt()
		if free == scenes.Nowhere {
			p.stuck = true
			return
		}
		p.put(p.held, free)
	}
	p.goTo(r)
	p.open(r)
	if p.held != scenes.Nowhere {
		p.addPut(p.h.Items[p.held].Name, p.h.Receptacles[r].Name)
	}
	p.add("take ", p.h.Items[i].Name, " from ", p.h.Receptacles[r].Name)
	p.held = i
}

// freeAt returns a receptacle that can hold what the agent holds: one at
// its place if there is one, else the first in the house; Nowhere if none
// can.
func (p *planner) freeAt() int {
	kind := p.h.Items[p.held].Kind
	first := scenes.Nowhere
	for r := range p.h.Receptacles {
		if !scenes.CanContain(p.h.Receptacles[r].Kind, kind) {
			continue
		}
		if p.h.SamePlace(p.at, r) {
			return r
		}
		if first == scenes.Nowhere {
			first = r
		}
	}
	return first
}

func (p *planner) put(i, r int) {
	p.goTo(r)
	p.open(r)
	p.addPut(p.h.Items[i].Name, p.h.Receptacles[r].Name)
	p.held = scenes.Nowhere
}

// lightUp switches the lamp on where it stands; ALFWorld's ToggleObject
// does not ask for its receptacle to be open.
func (p *planner) lightUp(lamp, at int) {
	p.goTo(at)
	if !p.h.Items[lamp].On {
		p.add("use ", p.h.Items[lamp].Name)
	}
}

func (p *planner) addPut(obj, rec string) {
	if p.v04 {
		p.add("move ", obj, " to ", rec)
		return
	}
	p.add("put ", obj, " in/on ", rec)
}

// verb is the command that gives the goal's state.
func (g Goal) verb() string {
	switch g.State {
	case StateHot:
		return "heat"
	case StateCold:
		return "cool"
	}
	return "clean"
}
