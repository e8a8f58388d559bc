package housework

import (
	"fmt"
	"slices"
	"strings"
)

// Turn is one step of a trial: a command and what came back, or a
// question to the user (Tag set) and the answer.
type Turn struct {
	Command     string `json:"command,omitempty"`
	Observation string `json:"observation,omitempty"`
	Tag         string `json:"tag,omitempty"`
	Question    string `json:"question,omitempty"`
	Answer      string `json:"answer,omitempty"`
}

// IsAsk reports whether the turn is a question to the user.
func (t Turn) IsAsk() bool { return t.Tag != "" }

// State is everything the planner knows when it decides.
type State struct {
	// Instruction is the task sentence; when empty it is read from the
	// opening's "Your task is to: …".
	Instruction string
	// Opening is the game's first observation: the room's description,
	// which lists the receptacles.
	Opening string
	// Turns are the trial's commands and questions so far, in order.
	Turns []Turn
	// NoPriors keeps the planner from the knowledge table's hints of where
	// things are kept: it searches in the order the room lists receptacles
	// and searches everywhere before saying something is absent.
	NoPriors bool
	// Slips make the planner err on purpose, as the simulated model does.
	Slips Slips
}

// Slips are mistakes the planner can be told to make.
type Slips struct {
	// SkipTreatment forgets to heat, cool or clean before putting.
	SkipTreatment bool
	// IgnoreMultiplicity reads "the X" as "an X": it takes the first X
	// seen without asking which.
	IgnoreMultiplicity bool
	// WrongInstance takes another X than the one the user picked out.
	WrongInstance bool
}

// Decision kinds.
const (
	Act   = "act"   // send Command
	Ask   = "ask"   // ask the user Question, tagged Tag
	Stuck = "stuck" // no way on: Why says why
)

// Steps: what a decision is for, so that a reader of the plan (the
// simulated model's slips, Diagnose) knows its part in the task.
const (
	StepSearch  = "search"  // go to or open a receptacle not yet seen inside
	StepExamine = "examine" // look closely at a candidate to tell it apart
	StepTake    = "take"    // go to the object, open its receptacle, take it
	StepFree    = "free"    // put down what the hand holds to take another
	StepTreat   = "treat"   // go to the appliance and heat, cool or clean
	StepPlace   = "place"   // go to the destination, open it, put the object
	StepLight   = "light"   // go to the lamp and switch it on
	StepAsk     = "ask"     // ask the user
	StepLook    = "look"    // learn the room
)

// Decision is the next thing to do.
type Decision struct {
	Kind     string
	Command  string
	Tag      string
	Question string
	// Why says what the decision is for, or for Stuck what blocks.
	Why  string
	Step string
	// Options are the instances a multiplicity question chooses among.
	Options []string
	// Task is the task as the planner reads it now, the user's answers
	// applied.
	Task Task
}

// Decide is the household planner: it reads the instruction, folds the
// observations into a belief and the answers into the task, and returns
// the next command or question. It is deterministic: the same State gives
// the same Decision. It remembers the states its turns folded into (see
// foldMemo), so that a caller that asks again with one more turn pays for
// that turn alone.
func Decide(s State) Decision {
	p, bad := prepare(s, false)
	if bad != nil {
		return *bad
	}
	return p.decide()
}

// decide is the next thing to do, from the turns folded so far.
func (p *planner) decide() Decision {
	d := p.next()
	d.Task = p.t
	if d.Kind == Act && p.failed[d.Command] {
		return Decision{Kind: Stuck, Step: d.Step, Task: p.t,
			Why: fmt.Sprintf("%q failed and nothing has changed since (%s)", d.Command, d.Why)}
	}
	return d
}

// Replay returns the belief a state's observations give, with the task
// read and the answers applied; err says why the instruction could not be
// read. The belief may be the one Decide keeps for the state and hands
// to later calls (see foldMemo): read it, never change it.
func Replay(s State) (*Belief, Task, error) {
	p, bad := prepare(s, false)
	if bad != nil {
		return NewBelief(s.Opening), Task{}, fmt.Errorf("%s", bad.Why)
	}
	return p.b, p.t, nil
}

// planner is one decision's reasoning: a state, and what its turns taught
// (folded, which foldMemo keeps).
type planner struct {
	s State
	folded
}

// Instruction returns the task sentence of a state: its Instruction, or
// what follows "Your task is to:" in the opening.
func (s State) instruction() string {
	if s.Instruction != "" {
		return s.Instruction
	}
	if _, task, ok := strings.Cut(s.Opening, "Your task is to:"); ok {
		return strings.TrimSpace(task)
	}
	return ""
}

// newPlanner is a planner over s that has folded none of its turns.
func newPlanner(s State) (*planner, *Decision) {
	t, err := ParseInstruction(s.instruction())
	if err != nil {
		return nil, &Decision{Kind: Stuck, Why: err.Error()}
	}
	return &planner{s: s, folded: folded{t: t, b: NewBelief(s.Opening), failed: map[string]bool{}}}, nil
}

// prepare folds a state's turns into a planner, from the state that
// foldMemo kept for the longest prefix of them it holds. The planner may
// share its folded state with foldMemo, which never changes what it keeps:
// it is read, as decide and Replay's callers do, and not folded into. A
// caller that folds more turns into it (Planner.Add) asks for one of its
// own (mine).
func prepare(s State, mine bool) (*planner, *Decision) {
	head := headHash(s)
	f, done, from, ok := recall(s, head)
	var p *planner
	if ok {
		// A state found whole is handed out as kept; copying it was most
		// of what a call's decision grew by with the trial (the belief
		// holds every receptacle and item seen). One that needs turns
		// folded into it is copied first.
		if mine || done < len(s.Turns) {
			f = f.clone()
		}
		p = &planner{s: s, folded: f}
	} else {
		var bad *Decision
		if p, bad = newPlanner(s); bad != nil {
			return nil, bad
		}
		kept := p.folded
		if mine || len(s.Turns) > 0 {
			kept = p.folded.clone()
		}
		keep(s, head, 0, nil, kept)
	}
	if done == len(s.Turns) {
		return p, nil
	}
	for _, tu := range s.Turns[done:] {
		p.fold(tu)
	}
	kept := p.folded
	if mine {
		kept = p.folded.clone()
	}
	keep(s, head, len(s.Turns), from, kept)
	return p, nil
}

// fold takes one turn into the belief, the task and the failed commands.
func (p *planner) fold(tu Turn) {
	if tu.IsAsk() {
		p.answered(tu)
		return
	}
	e := p.b.Observe(tu.Command, tu.Observation)
	switch {
	case e.Changed:
		clear(p.failed)
	case !e.Understood:
		p.failed[tu.Command] = true
	}
}

// answered applies the user's answer to a question.
func (p *planner) answered(tu Turn) {
	switch tu.Tag {
	case "underspecified":
		p.askedVague = true
		if k, n, ok := KindAnswer(tu.Answer, ""); ok {
			p.t.Kind, p.t.Vague = k, false
			if n >= 2 {
				p.t.Count = 2
			}
		}
	case "absence":
		p.askedAbsence = true
		if k, _, ok := KindAnswer(tu.Answer, p.t.Kind); ok {
			p.t.Kind = k
		}
	case "multiplicity":
		p.askedWhich = true
		p.which, _ = WhichAnswer(tu.Answer)
	}
}

func act(cmd, step, why string) Decision {
	return Decision{Kind: Act, Command: cmd, Step: step, Why: why}
}

func stuck(format string, args ...any) Decision {
	return Decision{Kind: Stuck, Why: fmt.Sprintf(format, args...)}
}

func (p *planner) next() Decision {
	t := p.t
	if t.Vague {
		if !p.askedVague {
			return Decision{Kind: Ask, Tag: "underspecified", Step: StepAsk, Question: vagueQuestion(t), Why: "the task does not say what object"}
		}
		return stuck("the answer to my question named no kind of object")
	}
	if len(p.b.Receptacles) == 0 {
		if p.b.At == Nowhere {
			return act("look", StepLook, "no receptacle is known yet")
		}
		return stuck("no receptacle is known")
	}
	if t.Definite && t.Count < 2 && !p.askedWhich && !p.s.Slips.IgnoreMultiplicity {
		seen := p.ofKind(t.Kind)
		if len(seen) >= 2 {
			var names []string
			for _, i := range seen {
				names = append(names, p.b.Items[i].Name)
			}
			return Decision{Kind: Ask, Tag: "multiplicity", Step: StepAsk, Options: names,
				Question: fmt.Sprintf("I see %s. Which %s do you mean?", strings.Join(names, ", "), t.Kind),
				Why:      fmt.Sprintf("the task says the %s and there are %d", t.Kind, len(seen))}
		}
		if len(seen) == 1 {
			// One seen is not yet the one meant: look where another could
			// be before acting on it.
			if r, ok := p.nextSearch([]string{t.Kind}, true); ok {
				return p.explore(r, fmt.Sprintf("one %s seen; looking for others, since the task says the %s", t.Kind, t.Kind))
			}
		}
	}
	switch t.Type {
	case TypeLookAtObjInLight:
		return p.look()
	case TypePickTwoObjAndPlace:
		return p.two()
	}
	return p.place()
}

// vagueQuestion asks what a vague task is about.
func vagueQuestion(t Task) string {
	switch {
	case t.Type == TypeLookAtObjInLight:
		return "What should I look at under the " + t.Lamp + "?"
	case t.Count >= 2:
		return "What kind of thing should I put two of in the " + t.Dest + "?"
	case t.Verb() != "":
		return "What should I " + t.Verb() + " and put in the " + t.Dest + "?"
	}
	return "What should I put in the " + t.Dest + "?"
}

// ofKind returns the items of a kind whose place is known, held ones
// included, in the order first seen.
func (p *planner) ofKind(kind string) []int {
	var out []int
	for i, it := range p.b.Items {
		if it.Kind == kind && (it.In != Nowhere || p.b.Held == i) {
			out = append(out, i)
		}
	}
	return out
}

// targets returns the items that would do for the task, or the decision
// that tells them apart (examining candidates when the user picked one by
// colour or owner).
func (p *planner) targets() ([]int, *Decision) {
	all := p.ofKind(p.t.Kind)
	w := p.which
	if !p.askedWhich || w == (Which{}) {
		return all, nil
	}
	if p.s.Slips.WrongInstance {
		var others []int
		for _, i := range all {
			if !w.Matches(p.b.Items[i]) {
				others = append(others, i)
			}
		}
		if len(others) > 0 {
			return others, nil
		}
	}
	var meant, unexamined []int
	for _, i := range all {
		switch it := p.b.Items[i]; {
		case w.Matches(it):
			meant = append(meant, i)
		case w.byLook() && !it.Described:
			unexamined = append(unexamined, i)
		}
	}
	if len(meant) > 0 || len(unexamined) == 0 {
		return meant, nil
	}
	d := p.describe(p.nearest(unexamined))
	return nil, &d
}

// nearest picks, of some items, one in hand, else one where the agent
// stands, else the first seen.
func (p *planner) nearest(items []int) int {
	for _, i := range items {
		if i == p.b.Held {
			return i
		}
	}
	for _, i := range items {
		if p.b.samePlace(p.b.At, p.b.Items[i].In) {
			return i
		}
	}
	return items[0]
}

// describe asks for an item's colour and owner, which ALFWorld's examine
// does not tell.
func (p *planner) describe(i int) Decision {
	it := p.b.Items[i]
	why := "to tell which " + it.Kind + " the user means"
	if i != p.b.Held {
		if d, ok := p.reach(it.In, StepExamine, why); ok {
			return d
		}
	}
	return act("describe "+it.Name, StepExamine, why)
}

// reach returns the command that brings the agent to receptacle r with r
// open, if one is needed.
func (p *planner) reach(r int, step, why string) (Decision, bool) {
	rec := p.b.Receptacles[r]
	if !p.b.samePlace(p.b.At, r) {
		return p.goTo(r, step, why), true
	}
	if rec.Closed {
		return act("open "+rec.Name, step, why), true
	}
	return Decision{}, false
}

// goTo goes to receptacle r. When going there did nothing, which in
// ALFWorld means it stands where the agent does, it looks instead:
// looking says which receptacles stand here.
func (p *planner) goTo(r int, step, why string) Decision {
	name := p.b.Receptacles[r].Name
	if p.failed["go to "+name] && p.b.At != Nowhere {
		return act("look", step, "going to the "+name+" did nothing; it may stand here")
	}
	return act("go to "+name, step, why)
}

func (p *planner) put(i, r int) string {
	obj, rec := p.b.Items[i].Name, p.b.Receptacles[r].Name
	if p.b.V04 {
		return "move " + obj + " to " + rec
	}
	return "put " + obj + " in/on " + rec
}

// take fetches item i: to its receptacle, open it, free the hand there,
// take it.
func (p *planner) take(i int) Decision {
	it := p.b.Items[i]
	why := "to take the " + it.Name
	if d, ok := p.reach(it.In, StepTake, why); ok {
		return d
	}
	if h := p.b.Held; h != Nowhere {
		return act(p.put(h, it.In), StepFree, "to free the hand for the "+it.Name)
	}
	return act("take "+it.Name+" from "+p.b.Receptacles[it.In].Name, StepTake, why)
}

func treated(it Item, state string) bool {
	switch state {
	case StateHot:
		return it.Hot
	case StateCold:
		return it.Cold
	case StateClean:
		return it.Clean
	}
	return true
}

// receptaclesOf returns the receptacles of a kind, the one the agent is
// at first, then those open to reach (seen open, or with nothing to open)
// before closed ones, in listing order.
func (p *planner) receptaclesOf(kind string) []int {
	var here, open, closed []int
	for r, rec := range p.b.Receptacles {
		switch {
		case rec.Kind != kind:
		case p.b.samePlace(p.b.At, r):
			here = append(here, r)
		case rec.Closed || !rec.Explored && p.opens(rec):
			closed = append(closed, r)
		default:
			open = append(open, r)
		}
	}
	return append(append(here, open...), closed...)
}

// opens reports whether a receptacle has to be opened, as far as the
// agent can tell: it was seen to, or the table says its kind does.
func (p *planner) opens(rec Receptacle) bool {
	if rec.Opens || rec.Explored {
		return rec.Opens
	}
	if p.s.NoPriors {
		return false
	}
	return knowledge[rec.Kind].Openable
}

func (p *planner) place() Decision {
	tg, d := p.targets()
	if d != nil {
		return *d
	}
	t := p.t
	skip := p.s.Slips.SkipTreatment
	if h := p.b.Held; h != Nowhere && slices.Contains(tg, h) {
		it := p.b.Items[h]
		if t.State != "" && !skip && !treated(it, t.State) {
			apps := p.receptaclesOf(t.Appliance())
			if len(apps) == 0 {
				return stuck("there is no %s to %s the %s with", t.Appliance(), t.Verb(), it.Name)
			}
			why := "to " + t.Verb() + " the " + it.Name
			if p.b.At != apps[0] {
				return act("go to "+p.b.Receptacles[apps[0]].Name, StepTreat, why)
			}
			return act(t.Verb()+" "+it.Name+" with "+p.b.Receptacles[apps[0]].Name, StepTreat, why)
		}
		return p.putIn(h, t.Dest)
	}
	for _, i := range tg {
		it := p.b.Items[i]
		if it.In != Nowhere && p.b.Receptacles[it.In].Kind == t.Dest && (skip || treated(it, t.State)) {
			return stuck("the %s is already in the %s; the task should be done", it.Name, p.b.Receptacles[it.In].Name)
		}
	}
	if len(tg) > 0 {
		return p.take(p.nearest(tg))
	}
	return p.search([]string{t.Kind}, true)
}

// putIn puts the held item in a receptacle of a kind.
func (p *planner) putIn(i int, kind string) Decision {
	ds := p.receptaclesOf(kind)
	if len(ds) == 0 {
		return stuck("there is no %s to put the %s in", kind, p.b.Items[i].Name)
	}
	return p.putAt(i, ds[0])
}

func (p *planner) putAt(i, r int) Decision {
	why := "to put the " + p.b.Items[i].Name + " in/on the " + p.b.Receptacles[r].Name
	if d, ok := p.reach(r, StepPlace, why); ok {
		return d
	}
	return act(p.put(i, r), StepPlace, why)
}

func (p *planner) two() Decision {
	tg, d := p.targets()
	if d != nil {
		return *d
	}
	t := p.t
	// The destination: the one that already holds one of them, else the
	// handiest of its kind.
	dest := Nowhere
	for _, i := range tg {
		if in := p.b.Items[i].In; in != Nowhere && p.b.Receptacles[in].Kind == t.Dest {
			dest = in
			break
		}
	}
	if dest == Nowhere {
		ds := p.receptaclesOf(t.Dest)
		if len(ds) == 0 {
			return stuck("there is no %s to put the %s in", t.Dest, t.Kind)
		}
		dest = ds[0]
	}
	var there, elsewhere []int
	for _, i := range tg {
		switch p.b.Items[i].In {
		case dest:
			there = append(there, i)
		case Nowhere:
		default:
			elsewhere = append(elsewhere, i)
		}
	}
	if len(there) >= t.Count {
		return stuck("%d %s are in the %s already; the task should be done", len(there), t.Kind, p.b.Receptacles[dest].Name)
	}
	if h := p.b.Held; h != Nowhere && slices.Contains(tg, h) {
		return p.putAt(h, dest)
	}
	if len(elsewhere) > 0 {
		return p.take(p.nearest(elsewhere))
	}
	return p.search([]string{t.Kind}, len(tg) == 0)
}

func (p *planner) look() Decision {
	tg, d := p.targets()
	if d != nil {
		return *d
	}
	t := p.t
	h := p.b.Held
	if h == Nowhere || !slices.Contains(tg, h) {
		if len(tg) > 0 {
			return p.take(p.nearest(tg))
		}
		return p.search([]string{t.Kind}, true)
	}
	lamps := p.ofKind(t.Lamp)
	if len(lamps) == 0 {
		return p.search([]string{t.Lamp}, false)
	}
	l := p.nearest(lamps)
	lamp := p.b.Items[l]
	why := "to look at the " + p.b.Items[h].Name + " under the " + lamp.Name
	if d, ok := p.reach(lamp.In, StepLight, why); ok {
		return d
	}
	if lamp.On {
		return stuck("the %s is on where I stand with the %s; the task should be done", lamp.Name, p.b.Items[h].Name)
	}
	return act("use "+lamp.Name, StepLight, why)
}

// search looks for things of some kinds: the next receptacle not yet seen
// inside, likely ones first. mayAsk allows asking the user, tagged
// absence, once every place such a thing could be has been seen inside
// and none was found.
func (p *planner) search(kinds []string, mayAsk bool) Decision {
	what := strings.Join(kinds, " or ")
	if mayAsk && !p.askedAbsence && p.searchedFor(kinds) {
		return Decision{Kind: Ask, Tag: "absence", Step: StepAsk,
			Question: fmt.Sprintf("I searched the room and found no %s. What should I use instead?", what),
			Why:      "no " + what + " anywhere it could be"}
	}
	if r, ok := p.nextSearch(kinds, false); ok {
		return p.explore(r, "to look for a "+what)
	}
	return stuck("I have searched every receptacle and found no %s", what)
}

func (p *planner) explore(r int, why string) Decision {
	rec := p.b.Receptacles[r]
	switch {
	case !p.b.samePlace(p.b.At, r):
		return p.goTo(r, StepSearch, why)
	case rec.Closed:
		return act("open "+rec.Name, StepSearch, why)
	}
	return act("examine "+rec.Name, StepSearch, why)
}

// likely reports whether a thing of one of the kinds is usually kept in or
// on a receptacle kind; with no priors, or kinds the table does not know,
// anything is likely anywhere.
func (p *planner) likely(kinds []string, recKind string) bool {
	known := false
	for _, k := range kinds {
		kk, ok := knowledge[k]
		if !ok || p.s.NoPriors {
			continue
		}
		known = true
		if kk.Fits(recKind) {
			return true
		}
	}
	return !known
}

// searchedFor reports whether every receptacle where a thing of the kinds
// could be has been seen inside: with the table, the likely ones, and
// when none of those but the destination's opens, every one that opens
// (something hidden away lies where it fits if it can, else anywhere
// closed); without, all.
func (p *planner) searchedFor(kinds []string) bool {
	likelyOpens := false
	for _, rec := range p.b.Receptacles {
		// Nothing is hidden at the destination: the task would start done.
		if p.likely(kinds, rec.Kind) && p.opens(rec) && rec.Kind != p.t.Dest {
			likelyOpens = true
		}
	}
	for _, rec := range p.b.Receptacles {
		if !rec.Explored && (p.likely(kinds, rec.Kind) || !likelyOpens && p.opens(rec)) {
			return false
		}
	}
	return true
}

// nextSearch returns the receptacle to search next: the one the agent is
// at, if it is not yet seen inside; then likely ones with nothing to open,
// likely ones that open, unlikely ones that open, the rest — each in
// listing order. likelyOnly stops after the likely ones.
func (p *planner) nextSearch(kinds []string, likelyOnly bool) (int, bool) {
	if at := p.b.At; at != Nowhere && !p.b.Receptacles[at].Explored && (!likelyOnly || p.likely(kinds, p.b.Receptacles[at].Kind)) {
		return at, true
	}
	best, bestRank := Nowhere, 4
	for r, rec := range p.b.Receptacles {
		if rec.Explored {
			continue
		}
		rank := 0
		likely := p.likely(kinds, rec.Kind)
		switch opens := p.opens(rec); {
		case likely && !opens:
			rank = 0
		case likely:
			rank = 1
		case likelyOnly:
			continue
		case opens:
			rank = 2
		default:
			rank = 3
		}
		if rank < bestRank {
			best, bestRank = r, rank
		}
	}
	return best, best != Nowhere
}
