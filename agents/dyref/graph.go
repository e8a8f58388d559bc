package dyref

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/scenes"
)

// NodeKind is what a node of the diagnostic graph stands for.
type NodeKind string

// Node kinds.
const (
	NodeGoal       NodeKind = "goal"       // the task; always node 0
	NodeSubGoal    NodeKind = "subgoal"    // find, take, heat/cool/clean, use the lamp, put
	NodeObject     NodeKind = "object"     // an object kind: the target(s), or another the trial handled
	NodeReceptacle NodeKind = "receptacle" // one receptacle of the room ("cabinet 3")
	NodePlace      NodeKind = "place"      // a kind the task needs: the destination, the appliance, the lamp
	NodeAction     NodeKind = "action"     // a distinct command the trial sent, or a question it asked
)

// EdgeKind is what an edge says.
type EdgeKind string

// Edge kinds. A dependency edge points from what needs to what is needed
// (a sub-goal to its precondition, an action to the thing it names).
const (
	EdgeDependency  EdgeKind = "dependency"
	EdgeInteraction EdgeKind = "interaction" // a target object to the place it is treated, lit or put at
	EdgeSpatial     EdgeKind = "spatial"     // could be at (thing → receptacle) or was found at (receptacle → thing)
)

// Node is one node of the diagnostic graph.
type Node struct {
	Kind  NodeKind
	Label string
}

// Edge joins two nodes by index into Graph.Nodes.
type Edge struct {
	From, To int
	Kind     EdgeKind
}

// Graph is the diagnostic graph of one trial. Nodes come in a fixed order:
// the goal, the sub-goals, the target objects, the places, the receptacles
// the task touches in the order the room lists them, then the actions in
// the order first sent (with any receptacle or object first named by an
// action right after it). Edges may repeat: a command sent n times adds
// n−1 extra dependency edges to the first thing it names.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// maxObjects bounds the target objects a task may ask for, so that a
// hostile count cannot blow the graph up.
const maxObjects = 8

// Build builds the diagnostic graph of a trial from its task and what it
// did. It reads the task as the planner does (housework.Replay: the
// instruction, with the user's answers applied) and the trial's
// observations for where things were seen. The error says why the task
// could not be read.
func Build(s housework.State) (*Graph, error) {
	// The task, with the answers applied, needs only the questions; the
	// belief and the sightings come from one pass over the commands, which
	// is most of Build's time.
	asks := housework.State{Instruction: s.Instruction, Opening: s.Opening}
	for _, tu := range s.Turns {
		if tu.IsAsk() {
			asks.Turns = append(asks.Turns, tu)
		}
	}
	_, task, err := housework.Replay(asks)
	if err != nil {
		return nil, fmt.Errorf("dyref: build: %v", err)
	}
	belief, seen, changed := sightings(s)
	b := &builder{
		g:       &Graph{Nodes: make([]Node, 0, 32+len(s.Turns)), Edges: make([]Edge, 0, 64+2*len(s.Turns))},
		t:       task,
		belief:  belief,
		recNode: map[string]int{},
		objNode: map[string]int{},
		target:  map[string]int{},
		actNode: map[string]int{},
	}
	b.task()
	b.places(seen)
	b.actions(s.Turns)
	b.achieved(s.Turns, changed)
	return b.g, nil
}

type builder struct {
	g      *Graph
	t      housework.Task
	belief *housework.Belief

	targets                   []int // target object nodes
	dest, appliance, lampNode int   // place nodes, or -1
	recNode                   map[string]int
	objNode                   map[string]int // non-target object nodes by kind
	target                    map[string]int // target instance name → which target
	actNode                   map[string]int
	actFirst                  map[int]int // action node → the first node it names
	// subGoals are the sub-goal nodes by verb (take, heat, cool, clean,
	// put, use), one per target in order.
	subGoals map[string][]int
}

func (b *builder) node(k NodeKind, label string) int {
	b.g.Nodes = append(b.g.Nodes, Node{Kind: k, Label: label})
	return len(b.g.Nodes) - 1
}

func (b *builder) edge(from, to int, k EdgeKind) {
	b.g.Edges = append(b.g.Edges, Edge{From: from, To: to, Kind: k})
}

// kindName is what the graph calls the task's object kind.
func (b *builder) kindName() string {
	if b.t.Kind == "" {
		return "something"
	}
	return b.t.Kind
}

// task adds the goal, the sub-goals, the target objects and the places,
// with the dependency and interaction edges between them.
func (b *builder) task() {
	t := b.t
	k := b.kindName()
	goal := fmt.Sprintf("%s: %s", t.Type, k)
	switch {
	case t.Dest != "":
		goal += " → " + t.Dest
	case t.Lamp != "":
		goal += " under " + t.Lamp
	}
	b.node(NodeGoal, goal)

	n := min(max(t.Count, 1), maxObjects)
	which := func(i int) string {
		if n == 1 {
			return ""
		}
		return fmt.Sprintf(" (%d of %d)", i+1, n)
	}
	// Sub-goals first, objects and places after, so that nodes of a kind
	// stay together; the edges are added once all exist.
	type chain struct{ find, take, treat, last int }
	chains := make([]chain, n)
	for i := range chains {
		c := &chains[i]
		c.find = b.node(NodeSubGoal, "find "+k+which(i))
		c.take = b.node(NodeSubGoal, "take "+k+which(i))
		b.subGoal("take", c.take)
		c.treat, c.last = -1, c.take
		if v := t.Verb(); v != "" {
			c.treat = b.node(NodeSubGoal, fmt.Sprintf("%s %s%s with %s", v, k, which(i), t.Appliance()))
			b.subGoal(v, c.treat)
			c.last = c.treat
		}
		if t.Dest != "" {
			c.last = b.node(NodeSubGoal, fmt.Sprintf("put %s%s in %s", k, which(i), t.Dest))
			b.subGoal("put", c.last)
		}
	}
	findLamp, useLamp := -1, -1
	if t.Lamp != "" {
		findLamp = b.node(NodeSubGoal, "find "+t.Lamp)
		useLamp = b.node(NodeSubGoal, "use "+t.Lamp)
		b.subGoal("use", useLamp)
	}
	for i := range n {
		b.targets = append(b.targets, b.node(NodeObject, k+which(i)))
	}
	b.dest, b.appliance, b.lampNode = -1, -1, -1
	if a := t.Appliance(); a != "" {
		b.appliance = b.node(NodePlace, a)
	}
	if t.Dest != "" {
		b.dest = b.node(NodePlace, t.Dest)
	}
	if t.Lamp != "" {
		b.lampNode = b.node(NodePlace, t.Lamp)
	}

	const goalNode = 0
	for i, c := range chains {
		obj := b.targets[i]
		b.edge(c.find, obj, EdgeDependency)
		b.edge(c.take, c.find, EdgeDependency)
		if i > 0 {
			// One hand: the next object is taken once the last is down.
			b.edge(c.take, chains[i-1].last, EdgeDependency)
		}
		if c.treat >= 0 {
			b.edge(c.treat, c.take, EdgeDependency)
			b.edge(c.treat, b.appliance, EdgeDependency)
			b.edge(obj, b.appliance, EdgeInteraction)
		}
		if t.Dest != "" {
			prev := c.take
			if c.treat >= 0 {
				prev = c.treat
			}
			b.edge(c.last, prev, EdgeDependency)
			b.edge(c.last, b.dest, EdgeDependency)
			b.edge(obj, b.dest, EdgeInteraction)
		}
		if useLamp >= 0 {
			b.edge(useLamp, c.last, EdgeDependency)
			b.edge(obj, b.lampNode, EdgeInteraction)
		}
	}
	switch {
	case useLamp >= 0:
		b.edge(findLamp, b.lampNode, EdgeDependency)
		b.edge(useLamp, findLamp, EdgeDependency)
		b.edge(goalNode, useLamp, EdgeDependency)
	default:
		b.edge(goalNode, chains[n-1].last, EdgeDependency)
	}
}

// sighting is where an item was first seen in the trial.
type sighting struct{ item, at string }

// sightings replays the trial's observations into a belief, as
// housework.Replay does, and returns it with, for each item in the order
// first seen, the receptacle it was first seen in or taken from. Where the
// agent later put it does not count.
func sightings(s housework.State) (*housework.Belief, []sighting, []bool) {
	bel := housework.NewBelief(s.Opening)
	var out []sighting
	changed := make([]bool, len(s.Turns))
	for k, tu := range s.Turns {
		if tu.IsAsk() {
			continue
		}
		before := len(bel.Items)
		changed[k] = bel.Observe(tu.Command, tu.Observation).Changed
		for _, it := range bel.Items[before:] {
			at := ""
			if it.In != housework.Nowhere {
				at = bel.Receptacles[it.In].Name
			} else if rest, ok := strings.CutPrefix(housework.NormalCommand(tu.Command), "take "+it.Name+" from "); ok {
				at = rest
			}
			if at != "" {
				out = append(out, sighting{item: it.Name, at: at})
			}
		}
	}
	return bel, out, changed
}

// places adds the receptacles the task touches and the spatial edges:
// where a target could be (the knowledge table's places for its kind, or
// every receptacle when the table does not know it, less those of the
// destination's kind, which the games keep clear of it), where each place
// kind stands, where the lamp could be, and where the trial found them.
func (b *builder) places(seen []sighting) {
	t := b.t
	recs := b.belief.Receptacles
	objCould := make([]bool, len(recs))
	lampCould := make([]bool, len(recs))
	objFound := make([]bool, len(recs))
	lampFound := make([]bool, len(recs))
	need := make([]bool, len(recs))
	objKind, objKnown := scenes.KindOf(t.Kind)
	lampKind, lampKnown := scenes.KindOf(t.Lamp)
	for r, rec := range recs {
		if rec.Kind != t.Dest && (!objKnown || objKind.Fits(rec.Kind)) {
			objCould[r] = true
		}
		if t.Lamp != "" && (!lampKnown || lampKind.Fits(rec.Kind)) {
			lampCould[r] = true
		}
	}
	for _, s := range seen {
		r, ok := b.belief.Receptacle(s.at)
		if !ok {
			continue
		}
		switch k := kindOf(s.item); {
		case t.Kind != "" && k == t.Kind:
			objFound[r] = true
		case t.Lamp != "" && k == t.Lamp:
			lampFound[r] = true
		}
	}
	for r, rec := range recs {
		need[r] = objCould[r] || lampCould[r] || objFound[r] || lampFound[r] ||
			(t.Dest != "" && rec.Kind == t.Dest) || (b.appliance >= 0 && rec.Kind == t.Appliance())
		if need[r] {
			b.recNode[rec.Name] = b.node(NodeReceptacle, rec.Name)
		}
	}
	for r, rec := range recs {
		if !need[r] {
			continue
		}
		rn := b.recNode[rec.Name]
		for _, obj := range b.targets {
			if objCould[r] {
				b.edge(obj, rn, EdgeSpatial)
			}
			if objFound[r] {
				b.edge(rn, obj, EdgeSpatial)
			}
		}
		if rec.Kind == t.Dest && b.dest >= 0 {
			b.edge(b.dest, rn, EdgeSpatial)
		}
		if b.appliance >= 0 && rec.Kind == t.Appliance() {
			b.edge(b.appliance, rn, EdgeSpatial)
		}
		if lampCould[r] {
			b.edge(b.lampNode, rn, EdgeSpatial)
		}
		if lampFound[r] {
			b.edge(rn, b.lampNode, EdgeSpatial)
		}
	}
}

func (b *builder) subGoal(verb string, n int) {
	if b.subGoals == nil {
		b.subGoals = map[string][]int{}
	}
	b.subGoals[verb] = append(b.subGoals[verb], n)
}

// achievedMark ends the label of a sub-goal the trial carried out.
const achievedMark = " (done)"

// achieved marks the sub-goals the trial carried out: a command that
// changed the world (changed[k], as the belief read its observation, in
// either feedback) and takes, treats or puts an object of the task's kind
// (at its destination's kind) or uses the lamp. Which sub-goals a failed
// trial reached and which it left open is what tells a skipped step from
// a search that never found the object, so the structure embedding sees
// the mark.
func (b *builder) achieved(turns []housework.Turn, changed []bool) {
	kind := b.t.Kind
	for k, tu := range turns {
		if tu.IsAsk() || !changed[k] {
			continue
		}
		label, ns := parseCommand(tu.Command)
		verb, _, _ := strings.Cut(label, " ")
		if verb == "move" {
			verb = "put"
		}
		if len(ns) == 0 {
			continue
		}
		switch verb {
		case "take", "heat", "cool", "clean":
			if kindOf(ns[0].name) != kind {
				continue
			}
		case "put":
			if kindOf(ns[0].name) != kind || len(ns) < 2 || kindOf(ns[1].name) != b.t.Dest {
				continue
			}
		case "use":
			if kindOf(ns[0].name) != b.t.Lamp {
				continue
			}
		default:
			continue
		}
		for _, n := range b.subGoals[verb] {
			if !strings.HasSuffix(b.g.Nodes[n].Label, achievedMark) {
				b.g.Nodes[n].Label += achievedMark
				break
			}
		}
	}
}

// role is what a name in a command stands for.
type role uint8

const (
	roleAny role = iota // examine X: a receptacle or an object
	roleRec
	roleObj
)

type named struct {
	name string
	role role
}

// parseCommand returns an action's label (the command normalised; every
// thought is "think") and the things it names.
func parseCommand(cmd string) (string, []named) {
	c := housework.NormalCommand(cmd)
	if strings.HasPrefix(c, "think:") || strings.HasPrefix(c, "think ") || c == "think" {
		return "think", nil
	}
	two := func(s, sep string, r2 role) []named {
		a, bb, ok := strings.Cut(s, sep)
		if !ok || a == "" || bb == "" {
			return nil
		}
		return []named{{a, roleObj}, {bb, r2}}
	}
	verb, rest, _ := strings.Cut(c, " ")
	var ns []named
	switch verb {
	case "go":
		if r, ok := strings.CutPrefix(rest, "to "); ok && r != "" {
			ns = []named{{r, roleRec}}
		}
	case "open", "close":
		if rest != "" {
			ns = []named{{rest, roleRec}}
		}
	case "take":
		ns = two(rest, " from ", roleRec)
		if ns == nil && rest != "" {
			ns = []named{{rest, roleObj}}
		}
	case "put":
		ns = two(rest, " in/on ", roleRec)
		if ns == nil {
			ns = two(rest, " in ", roleRec)
		}
		if ns == nil {
			ns = two(rest, " on ", roleRec)
		}
	case "move":
		ns = two(rest, " to ", roleRec)
	case "heat", "cool", "clean":
		ns = two(rest, " with ", roleRec)
	case "use":
		if rest != "" {
			ns = []named{{rest, roleObj}}
		}
	case "examine":
		if rest != "" {
			ns = []named{{rest, roleAny}}
		}
	}
	return c, ns
}

// actions adds a node for each distinct command and question of the trial,
// with a dependency edge to each thing it names; a repeat adds one more
// edge to the first thing named and counts in the label ("go to fridge 1
// ×3").
func (b *builder) actions(turns []housework.Turn) {
	count := map[int]int{}
	var order []int
	b.actFirst = map[int]int{}
	for _, tu := range turns {
		var label string
		var ns []named
		if tu.IsAsk() {
			label = "ask: " + strings.Join(strings.Fields(strings.ToLower(tu.Tag)), " ")
		} else {
			label, ns = parseCommand(tu.Command)
			if label == "" {
				label = "(empty)"
			}
		}
		a, seen := b.actNode[label]
		if seen {
			count[a]++
			if first, ok := b.actFirst[a]; ok {
				b.edge(a, first, EdgeDependency)
			}
			continue
		}
		a = b.node(NodeAction, label)
		b.actNode[label] = a
		count[a] = 1
		order = append(order, a)
		if tu.IsAsk() {
			// A question is about what the task means: the target.
			b.edge(a, b.targets[0], EdgeDependency)
			b.actFirst[a] = b.targets[0]
			continue
		}
		for i, n := range ns {
			to := b.resolve(n)
			b.edge(a, to, EdgeDependency)
			if i == 0 {
				b.actFirst[a] = to
			}
		}
	}
	for _, a := range order {
		if c := count[a]; c > 1 {
			b.g.Nodes[a].Label += " ×" + strconv.Itoa(c)
		}
	}
}

// resolve returns the node of a thing a command names, adding it when the
// graph has none yet.
func (b *builder) resolve(n named) int {
	r := n.role
	if r == roleAny {
		switch _, isItem := b.belief.Item(n.name); {
		case isItem:
			r = roleObj
		default:
			if _, isRec := b.belief.Receptacle(n.name); isRec {
				r = roleRec
			} else if k, ok := scenes.KindOf(kindOf(n.name)); ok && k.Receptacle {
				r = roleRec
			} else {
				r = roleObj
			}
		}
	}
	if r == roleRec {
		if i, ok := b.recNode[n.name]; ok {
			return i
		}
		i := b.node(NodeReceptacle, n.name)
		b.recNode[n.name] = i
		return i
	}
	k := kindOf(n.name)
	switch {
	case b.lampNode >= 0 && k == b.t.Lamp:
		return b.lampNode
	case k == b.t.Kind && b.t.Kind != "":
		// Instances of the target kind go to the targets in the order
		// first named, the last target taking any beyond.
		i, ok := b.target[n.name]
		if !ok {
			i = min(len(b.target), len(b.targets)-1)
			b.target[n.name] = i
		}
		return b.targets[i]
	}
	if i, ok := b.objNode[k]; ok {
		return i
	}
	i := b.node(NodeObject, k)
	b.objNode[k] = i
	return i
}

// kindOf is the kind a name speaks of ("egg" for "egg 1").
func kindOf(name string) string { return housework.KindOfName(name) }

// Count returns how many nodes of a kind the graph has.
func (g *Graph) Count(k NodeKind) int {
	n := 0
	for _, nd := range g.Nodes {
		if nd.Kind == k {
			n++
		}
	}
	return n
}

// EdgeCount returns how many edges of a kind the graph has, repeats
// included.
func (g *Graph) EdgeCount(k EdgeKind) int {
	n := 0
	for _, e := range g.Edges {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// String writes the graph one node and one edge a line, for reports and
// test failures.
func (g *Graph) String() string {
	var sb strings.Builder
	for i, n := range g.Nodes {
		fmt.Fprintf(&sb, "%d %s %s\n", i, n.Kind, n.Label)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&sb, "%d -> %d %s\n", e.From, e.To, e.Kind)
	}
	return sb.String()
}
