package compare

import (
	"fmt"
	"maps"
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// TestStreamAsHeld checks the Stream against the comparison it replaced,
// which indexed both runs whole (heldRuns and heldExactDiff, kept
// below as they were): on random runs of random grids, in the same
// order, shuffled, with episodes dropped, groups on one side only, an
// episode twice, an agent under two models, infrastructure errors and
// queries, Runs gives the same result and the same error, and ExactDiff
// the same differences; a Stream fed one side before the other, or
// keeping the first five differences, gives the same again.
func TestStreamAsHeld(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(36, 1))
	for trial := range 400 {
		base, new := randomRuns(rng)
		opts := Options{MinEffect: 0.05}
		if rng.IntN(3) == 0 {
			opts.Agents = []string{"a"}
		}
		why := fmt.Sprintf("trial %d (%d BASE, %d NEW records)", trial, len(base), len(new))
		want, werr := heldRuns(base, new, opts)
		got, gerr := Runs(base, new, opts)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Runs gives\n%+v, %v\nwant\n%+v, %v", why, got, gerr, want, werr)
		}
		wantDiffs := heldExactDiff(base, new)
		if d := ExactDiff(base, new); !reflect.DeepEqual(d, wantDiffs) {
			t.Fatalf("%s: ExactDiff gives %d differences %v, want %d %v", why, len(d), d[:min(len(d), 5)], len(wantDiffs), wantDiffs[:min(len(wantDiffs), 5)])
		}
		if hasDuplicate(base) || hasDuplicate(new) {
			continue // a Stream alone is fed by readers that refuse an episode twice
		}
		// One side whole before the other: every record is held.
		s := NewStream(opts)
		s.Exact(5)
		for _, r := range base {
			s.AddBase(r)
		}
		for _, r := range new {
			s.AddNew(r)
		}
		got, gerr = s.Result()
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: a Stream fed BASE first gives\n%+v, %v\nwant\n%+v, %v", why, got, gerr, want, werr)
		}
		if n, first := s.ExactDiffs(); n != len(wantDiffs) || !reflect.DeepEqual(first, wantDiffs[:min(n, 5)]) {
			t.Fatalf("%s: a Stream keeping five differences gives %d, %v; want %d, %v", why, n, first, len(wantDiffs), wantDiffs[:min(len(wantDiffs), 5)])
		}
	}
}

func hasDuplicate(recs []results.Record) bool {
	_, _, _, dup := results.FirstDuplicate(recs)
	return dup
}

// randomRuns makes two runs of a random grid, in grid order: NEW with
// some fields of some records changed, and each run, by chance, altered
// in one of the ways a comparison must catch or survive.
func randomRuns(rng *rand.Rand) (base, new []results.Record) {
	agents := []string{"a", "b", "c"}[:1+rng.IntN(3)]
	families := []string{"pick_place", "spatial"}[:1+rng.IntN(2)]
	perts := []string{"none", "absence"}[:1+rng.IntN(2)]
	sizes := []int{0, 24}[:1+rng.IntN(2)]
	episodes, repeats := 1+rng.IntN(12), 1+rng.IntN(2)
	chance := func(n int) bool { return rng.IntN(n) == 0 }
	pick := func(n int) int { return rng.IntN(n) }
	for _, fam := range families {
		track := "tabletop"
		if chance(3) {
			track = "semmap"
		}
		for _, pert := range perts {
			for _, size := range sizes {
				for _, agent := range agents {
					for ep := range episodes {
						for rep := range repeats {
							r := results.Record{Schema: 2, Suite: 1, Outcome: results.OutcomeScored, Track: track, Family: fam, Perturbation: pert,
								Agent: agent, Model: "sim", Seed: 7, Episode: ep, SceneSize: size, Repeat: rep, WallMS: float64(pick(100))}
							randomFields(&r, rng)
							base = append(base, r)
						}
					}
				}
			}
		}
	}
	for _, r := range base {
		if chance(4) {
			randomFields(&r, rng)
		}
		r.WallMS = float64(pick(100))
		new = append(new, r)
	}
	if chance(3) {
		for i := range new {
			new[i].Model = "sim:weak"
		}
	}
	alter := func(recs []results.Record, other []results.Record) []results.Record {
		switch pick(12) {
		case 0:
			rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		case 1:
			slices.Reverse(recs)
		case 2: // episodes dropped
			for range min(1+pick(3), len(recs)-1) {
				i := pick(len(recs))
				recs = slices.Delete(recs, i, i+1)
			}
		case 3: // a group gone
			g := groupOf(recs[pick(len(recs))])
			recs = slices.DeleteFunc(recs, func(r results.Record) bool { return groupOf(r) == g })
		case 4: // an agent of its own
			for _, r := range recs[:1+pick(len(recs))] {
				r.Agent = "z"
				recs = append(recs, r)
			}
		case 5: // an episode twice
			recs = append(recs, recs[pick(len(recs))])
		case 6: // an agent under two models
			recs[pick(len(recs))].Model = "other"
		case 7: // nothing pairs
			for i := range recs {
				recs[i].Perturbation = "elsewhere"
			}
		case 8: // shuffled and an episode dropped
			rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
			recs = recs[:len(recs)-1]
		}
		if len(recs) == 0 {
			return other[:1]
		}
		return recs
	}
	if chance(2) {
		new = alter(new, base)
	} else {
		base = alter(base, new)
	}
	return base, new
}

// randomFields sets a record's outcome and scored fields at random, with
// nil and empty maps and slices both (which an exact comparison tells
// apart).
func randomFields(r *results.Record, rng *rand.Rand) {
	chance := func(n int) bool { return rng.IntN(n) == 0 }
	r.Outcome, r.ErrorKind = results.OutcomeScored, ""
	if chance(12) {
		r.Outcome, r.ErrorKind = results.OutcomeInfraError, "timeout"
	}
	r.Success, r.ADA, r.Steps = !chance(3), !chance(3), rng.IntN(3)
	r.Query, r.Top1 = "", false
	if r.Track == "semmap" && !chance(4) {
		r.Query, r.Top1 = fmt.Sprint("q", r.Episode), chance(2)
	}
	r.ToolCalls = [...]map[string]int{nil, {}, {"ask": 1}, {"ask": 2, "done": 1}}[rng.IntN(4)]
	r.Answer = [...][]string{nil, {}, {"x"}, {"x", "y"}}[rng.IntN(4)]
	r.Messages = [...][]results.Message{nil, {}, {{From: "robot1", To: "robot2", Text: "where?"}}, {{From: "robot1", To: "robot2", Text: "here"}}}[rng.IntN(4)]
	r.ReflectionTools = [...]map[string]int{nil, {"lesson": 1}, {"lesson": 1, "key_rules": 2}}[rng.IntN(3)]
}

// TestPackRecord: a packed record unpacks equal, nil and empty maps and
// slices apart, for records of every field set at random.
func TestPackRecord(t *testing.T) {
	t.Parallel()
	rng := randv1.New(randv1.NewSource(36)) // testing/quick's
	for i := range 300 {
		v, ok := quick.Value(reflect.TypeFor[results.Record](), rng)
		if !ok {
			t.Fatal("quick.Value cannot make a record")
		}
		r := v.Interface().(results.Record)
		switch i % 3 {
		case 0:
			r.ToolCalls, r.Answer, r.Messages = nil, nil, nil
		case 1:
			r.ToolCalls, r.Answer, r.Messages = map[string]int{}, []string{}, []results.Message{}
		}
		if got := unpackRecord(packRecord(&r)); !reflect.DeepEqual(got, r) {
			t.Fatalf("record %d: unpacked\n%+v\nwant\n%+v", i, got, r)
		}
	}
}

// heldExactDiff is ExactDiff as it was before the Stream.
func heldExactDiff(base, new []results.Record) []FieldDiff {
	nk := make(map[string]results.Record, len(new))
	for _, r := range new {
		nk[r.EpisodeKey()] = r
	}
	bk := make(map[string]results.Record, len(base))
	for _, r := range base {
		bk[r.EpisodeKey()] = r
	}
	var out []FieldDiff
	rt := reflect.TypeFor[results.Record]()
	for _, k := range slices.Sorted(maps.Keys(bk)) {
		x := bk[k]
		y, ok := nk[k]
		if !ok {
			continue
		}
		vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if unscoredFields[name] {
				continue
			}
			fx, fy := vx.Field(i).Interface(), vy.Field(i).Interface()
			if !reflect.DeepEqual(fx, fy) {
				out = append(out, FieldDiff{Key: x.PlainKey(), Field: name, Base: fmt.Sprint(fx), New: fmt.Sprint(fy)})
			}
		}
	}
	return out
}

// heldSide indexes one run's records by EpisodeKey, within each group.
type heldSide struct {
	name   string
	groups map[group]map[string]results.Record
	models []string
}

func heldIndex(name string, recs []results.Record) (heldSide, error) {
	s := heldSide{name: name, groups: map[group]map[string]results.Record{}}
	if k, i, j, dup := results.FirstDuplicate(recs); dup {
		// One of the two would pair and the other be dropped unseen.
		return heldSide{}, &UnpairedError{fmt.Sprintf("%s holds episode %s twice (records %d and %d); a run records each episode once", name, k, i+1, j+1)}
	}
	model := map[string]string{}
	for _, r := range recs {
		if m, ok := model[r.Agent]; ok && m != r.Model {
			return heldSide{}, &UnpairedError{fmt.Sprintf("%s holds agent %s under two models, %q and %q; compare runs of one model per agent", name, r.Agent, m, r.Model)}
		}
		model[r.Agent] = r.Model
		g := groupOf(r)
		if s.groups[g] == nil {
			s.groups[g] = map[string]results.Record{}
		}
		s.groups[g][r.EpisodeKey()] = r
	}
	s.models = slices.Sorted(maps.Keys(func() map[string]bool {
		m := map[string]bool{}
		for _, v := range model {
			m[v] = true
		}
		return m
	}()))
	return s, nil
}

// Runs pairs the records of two runs by [results.Record.EpisodeKey] and
// compares, for each agent and cell (family × perturbation, and scene
// size), the cell's metrics: SR and ADA, or Top1 for a cell of queries.
// Each comparison gets McNemar's exact p from its discordant pairs, the
// p adjusted by Holm's method over all the comparisons made, and a
// verdict: worse (or better) when the adjusted p is below Alpha and the
// rate moved by MinEffect or more, same otherwise.
//
// Pairs where either heldSide ended in an infrastructure error are left out
// and counted. A group (agent and cell) on one heldSide only is left out and
// named. Within a group on both sides every episode must pair: if one
// does not, or nothing pairs at all, Runs returns an *UnpairedError
// that says which.
func heldRuns(base, new []results.Record, opts Options) (Result, error) {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	for _, m := range opts.Metrics {
		if !slices.Contains(stats.MetricNames, m) {
			return Result{}, fmt.Errorf("unknown metric %q (have %s)", m, strings.Join(stats.MetricNames, ", "))
		}
	}
	res := Result{Options: opts}
	b, err := heldIndex("BASE", base)
	if err != nil {
		return res, err
	}
	n, err := heldIndex("NEW", new)
	if err != nil {
		return res, err
	}
	res.BaseModels, res.NewModels = b.models, n.models
	groups := slices.SortedFunc(maps.Keys(b.groups), compareGroups)
	for _, g := range groups {
		if _, ok := n.groups[g]; !ok {
			res.OnlyBase = append(res.OnlyBase, g.String())
		}
	}
	for _, g := range slices.SortedFunc(maps.Keys(n.groups), compareGroups) {
		if _, ok := b.groups[g]; !ok {
			res.OnlyNew = append(res.OnlyNew, g.String())
		}
	}
	for _, g := range groups {
		br, nr := b.groups[g], n.groups[g]
		if nr == nil {
			continue
		}
		if err := heldSamePairs(g, br, nr); err != nil {
			return res, err
		}
		var pb, pn []results.Record
		for _, k := range slices.Sorted(maps.Keys(br)) {
			x, y := br[k], nr[k]
			if !x.Scored() || !y.Scored() {
				res.InfraPairs++
				if !x.Scored() {
					res.InfraBase++
				}
				if !y.Scored() {
					res.InfraNew++
				}
				continue
			}
			pb, pn = append(pb, x), append(pn, y)
		}
		for _, m := range heldCellMetrics(slices.Concat(pb, pn)) {
			c := Comparison{Agent: g.agent, Track: g.track, Family: g.family, Perturbation: g.perturbation, SceneSize: g.size, Metric: m.Name}
			for i := range pb {
				x, y := m.Of(pb[i]), m.Of(pn[i])
				c.Pairs++
				switch {
				case x && y:
					c.Both++
				case x:
					c.B++
				case y:
					c.C++
				}
			}
			c.P = stats.McNemarP(c.B, c.C)
			c.Gated = (len(opts.Agents) == 0 || slices.Contains(opts.Agents, g.agent)) &&
				(len(opts.Metrics) == 0 || slices.Contains(opts.Metrics, m.Name))
			res.Comparisons = append(res.Comparisons, c)
		}
	}
	if len(res.Comparisons) == 0 {
		why := "no agent and cell is in both runs"
		if len(b.groups) > 0 && len(n.groups) > 0 {
			why += fmt.Sprintf(" (BASE has %s, NEW has %s)", heldFirstGroups(b), heldFirstGroups(n))
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

// cellMetrics are the metrics a cell is scored by: Top-1 for a cell of
// queries (records with a Query: the semmap track), SR and ADA for a
// cell of tasks. The rule reads the records, not the track's name.
func heldCellMetrics(recs []results.Record) []stats.Metric {
	for _, r := range recs {
		if r.Query != "" {
			return []stats.Metric{stats.MetricTop1}
		}
	}
	return []stats.Metric{stats.MetricSR, stats.MetricADA}
}

func heldFirstGroups(s heldSide) string {
	gs := slices.SortedFunc(maps.Keys(s.groups), compareGroups)
	var names []string
	for _, g := range gs[:min(len(gs), 2)] {
		names = append(names, g.String())
	}
	out := strings.Join(names, ", ")
	if len(gs) > 2 {
		out += fmt.Sprintf(" and %d more", len(gs)-2)
	}
	return out
}

// samePairs checks that a group's episodes are the same on both sides.
func heldSamePairs(g group, b, n map[string]results.Record) error {
	var onlyB, onlyN []string
	for k, r := range b {
		if _, ok := n[k]; !ok {
			onlyB = append(onlyB, r.PlainKey())
		}
	}
	for k, r := range n {
		if _, ok := b[k]; !ok {
			onlyN = append(onlyN, r.PlainKey())
		}
	}
	if len(onlyB) == 0 && len(onlyN) == 0 {
		return nil
	}
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
		g, len(b), len(n), strings.Join(parts, ", "))}
}

// TestEqualField: equalField is reflect.DeepEqual, field by field, on
// random records and on copies of them with one field taken from
// another record, or a map or slice made nil or empty.
func TestEqualField(t *testing.T) {
	t.Parallel()
	rng := randv1.New(randv1.NewSource(37))
	rt := reflect.TypeFor[results.Record]()
	random := func() results.Record {
		v, ok := quick.Value(rt, rng)
		if !ok {
			t.Fatal("quick.Value cannot make a record")
		}
		return v.Interface().(results.Record)
	}
	for i := range 300 {
		x, other := random(), random()
		y := unpackRecord(packRecord(&x))
		vy := reflect.ValueOf(&y).Elem()
		changed := rng.Intn(rt.NumField())
		f := vy.Field(changed)
		switch {
		case i%3 == 0:
			f.Set(reflect.ValueOf(other).Field(changed))
		case i%3 == 1:
			f.SetZero()
		case f.Kind() == reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
		case f.Kind() == reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		}
		vx := reflect.ValueOf(&x).Elem()
		for j := range rt.NumField() {
			if got, want := equalField(vx.Field(j), vy.Field(j)), reflect.DeepEqual(vx.Field(j).Interface(), vy.Field(j).Interface()); got != want {
				t.Fatalf("record %d, field %s: equalField %t, DeepEqual %t", i, rt.Field(j).Name, got, want)
			}
		}
	}
}
