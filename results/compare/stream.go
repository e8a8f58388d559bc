package compare

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// A Stream pairs the records of two runs as they come, BASE's with
// [Stream.AddBase] and NEW's with [Stream.AddNew], in any order, and adds
// up each pair as its second record comes: the counts behind both rates
// and the discordant pairs of each agent and cell, the pairs left out for
// infrastructure errors and, with [Stream.Exact], the fields in which the
// pair differs. [Stream.Result] then gives what [Runs] gives for the same
// records, and [Stream.ExactDiffs] what [ExactDiff] does: Runs and
// ExactDiff are a Stream over two slices.
//
// A record is held only until its partner comes, and then in a compact
// form: its episode and the bits a pair needs of it (an entry of a map
// keyed by 32 bytes), and with Exact its fields packed (a few hundred
// bytes for a tabletop record). Two runs of one grid come in the same
// order, so fed side by side (a record of BASE, one of NEW, and so on) a
// Stream holds one record at a time; records whose partner comes later,
// or never (another order, a group in one run only), are held until it
// comes or until the end.
//
// A Stream does not refuse an episode given twice on one side, which
// would pair once and then be held unpaired (or pair twice, if the other
// side has it twice too): its caller does, as a run's reader refuses a
// line ([results.OnceEach]) and Runs a record of a slice.
type Stream struct {
	opts   Options
	groups map[group]int32 // a group's index in cells
	cells  []cellTally
	sides  [2]streamSide

	exact   bool
	keep    int    // differences kept, all when negative
	scratch []byte // where a record is packed
	diffs   int    // differences found
	first   []keyedDiff
}

// The sides of a Stream.
const (
	baseSide = 0
	newSide  = 1
)

var sideNames = [2]string{"BASE", "NEW"}

// cellTally is what a Stream adds up for one group.
type cellTally struct {
	g       group
	records [2]int // records of each side
	// pairs counts the scored pairs; metric[i] counts them for
	// tallyMetrics[i], whichever metrics the cell turns out to be scored
	// by: that depends on whether any scored record holds a query.
	pairs  int
	query  bool
	metric [3]struct{ both, b, c int }
	// infra counts the pairs left out for an infrastructure error, and
	// infraSide each side's records among them.
	infra     int
	infraSide [2]int
}

var tallyMetrics = [3]stats.Metric{stats.MetricSR, stats.MetricADA, stats.MetricTop1}

// pairKey is a record's episode within a Stream ([results.Record.EpisodeKey]
// with its group as an index).
type pairKey struct {
	seed    uint64
	episode int
	repeat  int
	group   int32
}

// Bits of a held record: what a pair needs of it but for Exact.
const (
	bitScored uint8 = 1 << iota
	bitQuery
	bitSR
	bitADA
	bitTop1
)

func bitsOf(r *results.Record) uint8 {
	var b uint8
	if r.Scored() {
		b |= bitScored
	}
	if r.Query != "" {
		b |= bitQuery
	}
	// The metrics say what they count, so that a bit is what Of reads.
	for i, m := range tallyMetrics {
		if m.Of(*r) {
			b |= metricBits[i]
		}
	}
	return b
}

// metricBits are the bits of tallyMetrics, in order.
var metricBits = [3]uint8{bitSR, bitADA, bitTop1}

// streamSide is what a Stream keeps of one side.
type streamSide struct {
	// models is each agent's model, as its first record names it; clash
	// is the refusal of the first record that names another.
	models map[string]string
	clash  error
	// last caches the group of the side's last record: a run's records
	// come a cell at a time.
	last   group
	lastID int32
	// pending is the side's latest record without a partner, whole when
	// the Stream is exact: in two runs of one order its partner is the
	// next record of the other side.
	pending    bool
	pendingKey pairKey
	pendingBit uint8
	pendingRec results.Record
	// held are the side's earlier records without a partner, and with
	// Exact packed holds them whole, packed (packRecord).
	held   map[pairKey]uint8
	packed map[pairKey][]byte
}

// NewStream returns a Stream that compares under opts.
func NewStream(opts Options) *Stream {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	s := &Stream{opts: opts, groups: map[group]int32{}}
	for i := range s.sides {
		s.sides[i] = streamSide{models: map[string]string{}, lastID: -1, held: map[pairKey]uint8{}}
	}
	return s
}

// Exact makes the stream compare each pair field by field, as
// [ExactDiff] does, and keep the first keep differences in ExactDiff's
// order (all of them when keep is negative); call it before the first
// record.
func (s *Stream) Exact(keep int) {
	s.exact, s.keep = true, keep
	for i := range s.sides {
		s.sides[i].packed = map[pairKey][]byte{}
	}
}

// AddBase adds a record of BASE.
func (s *Stream) AddBase(r results.Record) { s.add(baseSide, &r) }

// AddNew adds a record of NEW.
func (s *Stream) AddNew(r results.Record) { s.add(newSide, &r) }

func (s *Stream) add(i int, r *results.Record) {
	me, other := &s.sides[i], &s.sides[1-i]
	if m, ok := me.models[r.Agent]; !ok {
		me.models[r.Agent] = r.Model
	} else if m != r.Model && me.clash == nil {
		me.clash = &UnpairedError{fmt.Sprintf("%s holds agent %s under two models, %q and %q; compare runs of one model per agent", sideNames[i], r.Agent, m, r.Model)}
	}
	g := groupOf(*r)
	if me.lastID < 0 || g != me.last {
		id, ok := s.groups[g]
		if !ok {
			id = int32(len(s.cells))
			s.groups[g] = id
			s.cells = append(s.cells, cellTally{g: g})
		}
		me.last, me.lastID = g, id
	}
	s.cells[me.lastID].records[i]++
	k := pairKey{seed: r.Seed, episode: r.Episode, repeat: r.Repeat, group: me.lastID}
	bits := bitsOf(r)

	if other.pending && other.pendingKey == k {
		other.pending = false
		s.pair(i, k, bits, r, other.pendingBit, &other.pendingRec)
		other.pendingRec = results.Record{}
		return
	}
	if ob, ok := other.held[k]; ok {
		delete(other.held, k)
		var or results.Record
		if s.exact {
			or = unpackRecord(other.packed[k])
			delete(other.packed, k)
		}
		s.pair(i, k, bits, r, ob, &or)
		return
	}
	if me.pending {
		me.held[me.pendingKey] = me.pendingBit
		if s.exact {
			// Packed into scratch and copied, so that what is held is the
			// record's size and not the size the buffer grew to.
			s.scratch = appendPacked(s.scratch[:0], reflect.ValueOf(&me.pendingRec).Elem())
			me.packed[me.pendingKey] = bytes.Clone(s.scratch)
		}
	}
	me.pending, me.pendingKey, me.pendingBit = true, k, bits
	if s.exact {
		me.pendingRec = *r
	}
}

// pair adds a pair: r, of side i, and o, of the other side, whose
// records are whole only when the stream is exact.
func (s *Stream) pair(i int, k pairKey, bits uint8, r *results.Record, obits uint8, o *results.Record) {
	bb, nb, br, nr := bits, obits, r, o
	if i == newSide {
		bb, nb, br, nr = obits, bits, o, r
	}
	c := &s.cells[k.group]
	if bb&nb&bitScored == 0 {
		c.infra++
		if bb&bitScored == 0 {
			c.infraSide[baseSide]++
		}
		if nb&bitScored == 0 {
			c.infraSide[newSide]++
		}
	} else {
		c.pairs++
		if (bb|nb)&bitQuery != 0 {
			c.query = true
		}
		for j, bit := range metricBits {
			m := &c.metric[j]
			switch x, y := bb&bit != 0, nb&bit != 0; {
			case x && y:
				m.both++
			case x:
				m.b++
			case y:
				m.c++
			}
		}
	}
	if s.exact {
		s.diffPair(br, nr)
	}
}

// HasAgent reports whether either side holds a record of agent.
func (s *Stream) HasAgent(agent string) bool {
	for _, c := range s.cells {
		if c.g.agent == agent {
			return true
		}
	}
	return false
}

// Result compares what the stream was given, as [Runs] does.
func (s *Stream) Result() (Result, error) {
	opts := s.opts
	if err := checkMetrics(opts.Metrics); err != nil {
		return Result{}, err
	}
	res := Result{Options: opts}
	for i := range s.sides {
		if err := s.sides[i].clash; err != nil {
			return res, err
		}
	}
	res.BaseModels, res.NewModels = s.sides[baseSide].modelList(), s.sides[newSide].modelList()
	order := make([]int32, len(s.cells))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return compareGroups(s.cells[x].g, s.cells[y].g) })
	for _, id := range order {
		if c := &s.cells[id]; c.records[newSide] == 0 {
			res.OnlyBase = append(res.OnlyBase, c.g.String())
		}
	}
	for _, id := range order {
		if c := &s.cells[id]; c.records[baseSide] == 0 {
			res.OnlyNew = append(res.OnlyNew, c.g.String())
		}
	}
	unpaired := s.unpaired()
	for _, id := range order {
		c := &s.cells[id]
		if c.records[baseSide] == 0 || c.records[newSide] == 0 {
			continue
		}
		if u := unpaired[id]; u[baseSide] != nil || u[newSide] != nil {
			return res, samePairs(c.g, c.records, u)
		}
		res.InfraPairs += c.infra
		res.InfraBase += c.infraSide[baseSide]
		res.InfraNew += c.infraSide[newSide]
		metrics := []int{0, 1}
		if c.query {
			metrics = []int{2}
		}
		for _, j := range metrics {
			m := c.metric[j]
			cm := Comparison{Agent: c.g.agent, Track: c.g.track, Family: c.g.family, Perturbation: c.g.perturbation, SceneSize: c.g.size,
				Metric: tallyMetrics[j].Name}
			cm.Pairs, cm.Both, cm.B, cm.C = c.pairs, m.both, m.b, m.c
			cm.P = stats.McNemarP(cm.B, cm.C)
			cm.Gated = (len(opts.Agents) == 0 || slices.Contains(opts.Agents, c.g.agent)) &&
				(len(opts.Metrics) == 0 || slices.Contains(opts.Metrics, cm.Metric))
			res.Comparisons = append(res.Comparisons, cm)
		}
	}
	if len(res.Comparisons) == 0 {
		why := "no agent and cell is in both runs"
		if b, n := s.firstGroups(order, baseSide), s.firstGroups(order, newSide); b != "" && n != "" {
			why += fmt.Sprintf(" (BASE has %s, NEW has %s)", b, n)
		}
		return res, &UnpairedError{why}
	}
	ps := make([]float64, len(res.Comparisons))
	for i, c := range res.Comparisons {
		ps[i] = c.P
	}
	for i, h := range stats.Holm(ps) {
		c := &res.Comparisons[i]
		c.Holm = h
		c.Verdict = VerdictSame
		if h < opts.Alpha && c.Pairs > 0 && math.Abs(c.Diff()) >= opts.MinEffect-1e-12 {
			c.Verdict = VerdictBetter
			if c.Diff() < 0 {
				c.Verdict = VerdictWorse
			}
		}
	}
	return res, nil
}

func checkMetrics(names []string) error {
	for _, m := range names {
		if !slices.Contains(stats.MetricNames, m) {
			return fmt.Errorf("unknown metric %q (have %s)", m, strings.Join(stats.MetricNames, ", "))
		}
	}
	return nil
}

func (s *streamSide) modelList() []string {
	set := map[string]bool{}
	for _, m := range s.models {
		set[m] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// unpaired lists, by group and side, the plain keys of the records held
// without a partner.
func (s *Stream) unpaired() map[int32][2][]string {
	out := map[int32][2][]string{}
	for i := range s.sides {
		side := &s.sides[i]
		add := func(k pairKey) {
			g := s.cells[k.group].g
			r := results.Record{Track: g.track, Family: g.family, Perturbation: g.perturbation, Agent: g.agent, Model: side.models[g.agent],
				Seed: k.seed, Episode: k.episode, SceneSize: g.size, Repeat: k.repeat}
			u := out[k.group]
			u[i] = append(u[i], r.PlainKey())
			out[k.group] = u
		}
		if side.pending {
			add(side.pendingKey)
		}
		for k := range side.held {
			add(k)
		}
	}
	return out
}

// firstGroups names the first two groups of side i, in order, and how
// many more there are; "" when the side has none.
func (s *Stream) firstGroups(order []int32, i int) string {
	var names []string
	n := 0
	for _, id := range order {
		if c := &s.cells[id]; c.records[i] > 0 {
			if n < 2 {
				names = append(names, c.g.String())
			}
			n++
		}
	}
	out := strings.Join(names, ", ")
	if n > 2 {
		out += fmt.Sprintf(" and %d more", n-2)
	}
	return out
}

func compareGroups(x, y group) int {
	return cmp.Or(cmp.Compare(x.agent, y.agent), cmp.Compare(x.track, y.track), cmp.Compare(x.family, y.family),
		cmp.Compare(x.perturbation, y.perturbation), cmp.Compare(x.size, y.size))
}

// samePairs is the refusal of a group whose episodes are not the same on
// both sides: records counts each side's, only the plain keys of those
// without a partner.
func samePairs(g group, records [2]int, only [2][]string) error {
	onlyB, onlyN := only[baseSide], only[newSide]
	slices.Sort(onlyB)
	slices.Sort(onlyN)
	show := func(keys []string) string {
		s := strings.Join(keys[:min(len(keys), 3)], ", ")
		if len(keys) > 3 {
			s += fmt.Sprintf(", … (%d in all)", len(keys))
		}
		return s
	}
	var parts []string
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in BASE (%s)", len(onlyB), show(onlyB)))
	}
	if len(onlyN) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in NEW (%s)", len(onlyN), show(onlyN)))
	}
	return &UnpairedError{fmt.Sprintf("%s: %d episodes in BASE and %d in NEW, %s; run both with the same --episodes, seed and grid",
		g, records[baseSide], records[newSide], strings.Join(parts, ", "))}
}
