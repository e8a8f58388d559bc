package results

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DefaultBaseline is the agent the workflow agents are compared with, pair by
// pair, when [ReportOptions] names none and the track's [TrackReport] names
// no other.
const DefaultBaseline = "sgcot"

// ablationPrefix marks the agents of the ablation table: SG-CoT and its
// variants.
const ablationPrefix = "sgcot"

// partialObservability is the perturbation of the partial-observability
// table. The name is spelled out here because results imports nothing of the
// project.
const partialObservability = "partial_observability"

// defaultPerturbations orders the ambiguity types as the papers do: the clear
// case, the three kinds of ambiguity, then the two-robot case.
var defaultPerturbations = []string{"none", "absence", "multiplicity", "underspecified", partialObservability}

// ReportOptions says how [Report] orders its rows and columns and which
// agents it compares pair by pair.
type ReportOptions struct {
	// Agents orders the rows: listed agents first, in this order; then
	// agents without a model (the reference agents), then the others,
	// alphabetically within each group.
	Agents []string
	// Perturbations orders the columns: listed perturbations first, then
	// the others alphabetically. Empty means none, absence, multiplicity,
	// underspecified, partial_observability.
	Perturbations []string
	// Baseline is the agent every other agent is compared with in the
	// paired comparisons. Empty means, track by track, the track's
	// baseline (TrackReport.Baseline), compared only with the agents that
	// use a model on that track, and no comparisons where it is absent; a
	// baseline that is named but absent is an error.
	Baseline string
	// AllPairs compares every pair of agents instead (Baseline is ignored).
	AllPairs bool
	// Plots are the plots written next to the report, as [DrawPlots]
	// returns them; each is linked under its section, or in a section
	// "Plots" when the report has not that section. Empty: no plot is
	// mentioned.
	Plots []PlotLink
	// Tracks says, by track name, which sections each track's records
	// get; a track not named gets the TrackReport zero value's.
	Tracks map[string]TrackReport
	// Cut adds a published cut of the results to the sections that
	// show it: CutDyRef, DyRef's (SectionDyRefCut); empty adds none.
	Cut string
	// CategoryEpisodes is the number of episodes per ambiguity category
	// in SectionSingleRobot (paper 001's Table 2 has 100), spread evenly
	// over the single-robot families: each family gives its episodes of
	// lowest index, the first families in alphabetical order one more
	// when the number does not divide. 0 pools every episode.
	CategoryEpisodes int
	// Shard, when the records are one shard of a run (run.json's shard
	// field), has the report say so under its title: its tables are of
	// that shard's part of the grid alone.
	Shard *RunShard
}

// unit is one row of the report: an agent with one model. Records of one
// agent name under two models are two units, so that nothing pools models.
type unit struct {
	agent, model, label string
	recs                []Record
}

// Report writes a Markdown report of recs: ADA and SR by agent and ambiguity
// type (task families pooled), cost per episode, the household's success by
// trial and reflection statistics, partial observability by task family, the
// SG-CoT ablations side by side, the scene-size series, and McNemar's exact
// test between agents on the same episodes. A section with nothing to show is
// left out. Every rate comes with its n and 95% Wilson interval.
//
// Rows are agents, labelled by name, or "name (model)" when one name ran with
// several models. The output depends only on recs as a set and on opts, never
// on the order of recs. Two records of the same episode (same [Record.Key])
// are an error, as they would count twice.
func Report(w io.Writer, recs []Record, opts ReportOptions) error {
	if k, _, _, dup := firstRepeat(recs); dup {
		return fmt.Errorf("report: episode %s appears twice", k)
	}
	all := recs
	if suites := suiteVersions(all); len(suites) > 1 {
		return fmt.Errorf("report: the records come from suite versions %s, whose episodes or scores differ; report each run apart", strings.Join(suites, " and "))
	}
	if opts.Cut != "" {
		if err := checkCut(opts.Cut, all, opts.Tracks); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	recs = ScoredOnly(recs)
	perturbOrder := opts.Perturbations
	if len(perturbOrder) == 0 {
		perturbOrder = defaultPerturbations
	}
	rp := &reporter{
		tracks:   distinct(recs, func(r Record) string { return r.Track }, cmp.Compare[string]),
		units:    groupUnits(recs, opts.Agents),
		perturbs: distinct(recs, func(r Record) string { return r.Perturbation }, orderBy(perturbOrder)),
		families: distinct(recs, func(r Record) string { return r.Family }, cmp.Compare[string]),
	}
	links := slices.Clone(opts.Plots)
	rp.trackReports = opts.Tracks
	rp.cut = opts.Cut
	rp.categoryEpisodes = opts.CategoryEpisodes
	pairs, err := rp.pairs(opts)
	if err != nil {
		return err
	}

	var b strings.Builder
	b.WriteString("# ambibench report\n\n")
	if suites := suiteVersions(all); len(suites) > 0 {
		fmt.Fprintf(&b, "Suite version %s.\n", strings.Join(suites, ", "))
	}
	if sh := opts.Shard; sh != nil {
		fmt.Fprintf(&b, "Shard %d of %d of a run: these tables are of its part of the grid alone (ambibench merge joins the shards into the whole run).\n", sh.Index, sh.Count)
	}
	if err := InfraMarkdown(&b, all); err != nil {
		return err
	}
	if len(recs) == 0 {
		b.WriteString("No records.\n")
	} else {
		rp.overview(&b, recs)
		placed := make([]bool, len(links))
		for _, sec := range rp.sections() {
			before := b.Len()
			sec.write(rp.only(sec.tracks), &b)
			if b.Len() == before {
				continue
			}
			for i, l := range links {
				if l.Section == sec.name && !placed[i] {
					plotLinks(&b, links[i:i+1])
					placed[i] = true
				}
			}
		}
		var rest []PlotLink
		for i, l := range links {
			if !placed[i] {
				rest = append(rest, l)
			}
		}
		if len(rest) > 0 {
			section(&b, "Plots", "")
			plotLinks(&b, rest)
		}
		rp.pairedTable(&b, pairs)
	}
	if rp.err != nil {
		return fmt.Errorf("report: %w", rp.err)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// trackReport is the TrackReport of a track's records.
func (rp *reporter) trackReport(track string) TrackReport { return rp.trackReports[track] }

// placedSection is a section with the tracks that list it.
type placedSection struct {
	Section
	tracks []string
}

// sections merges the sections of the tracks present, each once, in the
// order the tracks (by name) list them.
func (rp *reporter) sections() []placedSection {
	var out []placedSection
	for _, track := range rp.tracks {
		for _, sec := range rp.trackReport(track).sections() {
			i := slices.IndexFunc(out, func(p placedSection) bool { return p.name == sec.name })
			if i < 0 {
				out = append(out, placedSection{Section: sec})
				i = len(out) - 1
			}
			out[i].tracks = append(out[i].tracks, track)
		}
	}
	return out
}

// only is the reporter over the records of tracks alone; units left
// without records drop out.
func (rp *reporter) only(tracks []string) *reporter {
	sub := *rp
	sub.units = nil
	for _, u := range rp.units {
		u.recs = filter(u.recs, func(r Record) bool { return slices.Contains(tracks, r.Track) })
		if len(u.recs) > 0 {
			sub.units = append(sub.units, u)
		}
	}
	sub.parent = rp
	return &sub
}

// suiteVersions lists the suite versions of recs, in increasing order.
func suiteVersions(recs []Record) []string {
	seen := map[int]bool{}
	for _, r := range recs {
		seen[r.Suite] = true
	}
	var out []string
	for _, v := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, strconv.Itoa(v))
	}
	return out
}

// rates writes ADA and SR by ambiguity type, and the tags' accuracy.
func (rp *reporter) rates(b *strings.Builder) {
	rp.rateTable(b, "Ambiguity detection (ADA) by ambiguity type",
		rp.caption("ADA", func(w Words) string { return w.ADA },
			"on a clear episode (none), the goal reached without asking; on an ambiguous one, a question to the user (under partial_observability, a message to the other robot)."),
		func(r Record) bool { return r.ADA })
	rp.rateTable(b, "Success rate (SR) by ambiguity type",
		rp.caption("SR", func(w Words) string { return w.SR }, "the settled scene satisfies the goal."),
		func(r Record) bool { return r.Success })
	rp.tagTable(b)
}

// caption defines a rate for the rate tables, in the words of the tracks
// whose records rp holds (TrackReport.Words, pick), def where a track
// says nothing: "ADA: …", or, when the tracks define it differently,
// "ADA on tabletop: … ADA on household: …".
func (rp *reporter) caption(rate string, pick func(Words) string, def string) string {
	var texts []string
	byText := map[string][]string{}
	for _, t := range rp.recordTracks() {
		text := cmp.Or(pick(rp.trackReport(t).Words), def)
		if byText[text] == nil {
			texts = append(texts, text)
		}
		byText[text] = append(byText[text], t)
	}
	switch len(texts) {
	case 0:
		return rate + ": " + def
	case 1:
		return rate + ": " + texts[0]
	}
	parts := make([]string, len(texts))
	for i, text := range texts {
		parts[i] = rate + " on " + strings.Join(byText[text], " and ") + ": " + text
	}
	return strings.Join(parts, " ")
}

// recordTracks are the tracks of rp's records, by name.
func (rp *reporter) recordTracks() []string {
	var out []string
	for _, u := range rp.units {
		for _, r := range u.recs {
			if !slices.Contains(out, r.Track) {
				out = append(out, r.Track)
			}
		}
	}
	slices.Sort(out)
	return out
}

// noise reports whether a perturbation is a noise perturbation of a track
// present.
func (rp *reporter) noise(p string) bool {
	for _, t := range rp.tracks {
		if slices.Contains(rp.trackReport(t).Noise, p) {
			return true
		}
	}
	return false
}

// twoRobots reports whether a family has two robots on a track present.
func (rp *reporter) twoRobots(family string) bool {
	for _, t := range rp.tracks {
		if slices.Contains(rp.trackReport(t).TwoRobotFamilies, family) {
			return true
		}
	}
	return false
}

// ambiguityTypes are the perturbations of the rate tables: all but the
// noise ones.
func (rp *reporter) ambiguityTypes() []string {
	return slices.DeleteFunc(slices.Clone(rp.perturbs), rp.noise)
}

// noiseNote is the rate tables' caption's word on the noise
// perturbations, when there are any.
func (rp *reporter) noiseNote() string {
	var ns []string
	for _, p := range rp.perturbs {
		if rp.noise(p) {
			ns = append(ns, p)
		}
	}
	if len(ns) == 0 {
		return ""
	}
	return fmt.Sprintf(" The noise perturbations (%s) are left out, of \"all\" too; see Robustness.", strings.Join(ns, ", "))
}

// tagTable is docs/metrics.md's tag accuracy: of the clarification
// questions an agent asked, the share whose tag matched the ground truth,
// pooled over the episodes of a column; "—" where it asked none.
func (rp *reporter) tagTable(b *strings.Builder) {
	asked := false
	for _, u := range rp.units {
		for _, r := range u.recs {
			asked = asked || r.Questions > 0
		}
	}
	if !asked {
		return
	}
	section(b, "Tag accuracy by ambiguity type", "Task families pooled. Tag accuracy: of the clarification questions asked, the share whose tag matched the ground-truth ambiguity; n counts questions, not episodes, and — marks a column without any."+rp.noiseNote())
	types := rp.ambiguityTypes()
	header(b, append(append([]string{"agent"}, types...), "all")...)
	for _, u := range rp.units {
		row := []string{u.label}
		for _, p := range append(slices.Clone(types), "") {
			var r Rate
			for _, rec := range u.recs {
				if rp.noise(rec.Perturbation) {
					continue
				}
				if p == "" || rec.Perturbation == p {
					r.N += rec.Questions
					r.K += rec.TagCorrect
				}
			}
			cell := "—"
			if r.N > 0 {
				cell = rateCell(r)
			}
			row = append(row, cell)
		}
		writeRow(b, row)
	}
	b.WriteString("\n")
}

type reporter struct {
	tracks             []string
	units              []unit
	perturbs, families []string
	trackReports       map[string]TrackReport
	parent             *reporter // of a reporter over some tracks' records (only)
	cut                string    // ReportOptions.Cut
	categoryEpisodes   int       // ReportOptions.CategoryEpisodes
	err                error     // a track's own section failed
}

// groupUnits splits recs by (agent, model) and orders the units as
// ReportOptions.Agents says. Each unit's records are sorted by key, so
// nothing downstream depends on the order of recs.
func groupUnits(recs []Record, order []string) []unit {
	type key struct{ agent, model string }
	// A group holds the indexes of its records, and its records are
	// copied once, sorted: appending the records themselves grew each
	// group by doubling, and sorting copied them again.
	groups := make(map[key][]int)
	models := make(map[string]map[string]bool)
	for i := range recs {
		r := &recs[i]
		k := key{r.Agent, r.Model}
		groups[k] = append(groups[k], i)
		if models[r.Agent] == nil {
			models[r.Agent] = make(map[string]bool)
		}
		models[r.Agent][r.Model] = true
	}
	units := make([]unit, 0, len(groups))
	for k, idx := range groups {
		rs := sortedByKeyAt(recs, idx)
		label := k.agent
		if len(models[k.agent]) > 1 {
			label = fmt.Sprintf("%s (%s)", k.agent, cmp.Or(k.model, "no model"))
		}
		units = append(units, unit{agent: k.agent, model: k.model, label: label, recs: rs})
	}
	byAgent := orderBy(order)
	group := func(u unit) int {
		switch {
		case slices.Contains(order, u.agent):
			return 0
		case u.model == "":
			return 1
		}
		return 2
	}
	slices.SortFunc(units, func(a, b unit) int {
		return cmp.Or(
			cmp.Compare(group(a), group(b)),
			byAgent(a.agent, b.agent),
			cmp.Compare(a.model, b.model),
		)
	})
	return units
}

// distinct returns the values of field over recs, once each, sorted by order.
func distinct(recs []Record, field func(Record) string, order func(a, b string) int) []string {
	set := make(map[string]bool)
	for _, r := range recs {
		set[field(r)] = true
	}
	return slices.SortedFunc(maps.Keys(set), order)
}

// sortedByKeyAt returns the records of recs at idx in the order of their
// Key, copied once. The keys are made once a record, not twice a
// comparison (a report over make bench's 28,600 records made 250 MB of
// them), and the indices are sorted rather than the 608-byte records.
func sortedByKeyAt(recs []Record, idx []int) []Record {
	type keyed struct {
		key string
		i   int
	}
	keys := make([]keyed, len(idx))
	for n, i := range idx {
		keys[n] = keyed{recs[i].Key(), i}
	}
	slices.SortFunc(keys, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	out := make([]Record, len(idx))
	for n, k := range keys {
		out[n] = recs[k.i]
	}
	return out
}

// filter returns the records of recs that keep accepts.
func filter(recs []Record, keep func(Record) bool) []Record {
	// Counted first and allocated once: appending grew the slice by
	// doubling, and a report over make bench's 28,600 records (608 bytes
	// each) filters thousands of them at a time.
	n := 0
	for _, r := range recs {
		if keep(r) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if n == len(recs) {
		return recs[:n:n] // shared, not copied: callers only read records
	}
	out := make([]Record, 0, n)
	for _, r := range recs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// usage sums what a group of episodes cost.
type usage struct {
	n                              int
	ada, sr                        Rate
	calls, in, out, steps, msgs    int
	objects, withObjects, withCall int
	p50, wall                      []float64
}

func summarize(recs []Record) usage {
	var u usage
	for _, r := range recs {
		u.n++
		u.ada.N++
		u.sr.N++
		if r.ADA {
			u.ada.K++
		}
		if r.Success {
			u.sr.K++
		}
		u.calls += r.Calls
		u.in += r.InputTokens
		u.out += r.OutputTokens
		u.steps += r.Steps
		u.msgs += len(r.Messages)
		if r.Objects > 0 {
			u.objects += r.Objects
			u.withObjects++
		}
		if r.Calls > 0 {
			u.withCall++
			u.p50 = append(u.p50, r.LatencyP50MS)
		}
		u.wall = append(u.wall, r.WallMS)
	}
	return u
}

// perEpisode is total/n with two decimals, "—" without episodes.
func perEpisode(total, n int) string {
	if n == 0 {
		return "—"
	}
	return fixed2(float64(total) / float64(n))
}

// tokens is total/n rounded to a whole number with thousands separators,
// "—" when n is 0.
func tokens(total, n int) string {
	if n == 0 {
		return "—"
	}
	return grouped(int64(math.Round(float64(total) / float64(n))))
}

func grouped(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// mean of vs, summed in sorted order so that it does not depend on the
// order of the records; "—" when vs is empty.
func mean(vs []float64) string {
	if len(vs) == 0 {
		return "—"
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	return fixed2(sum / float64(len(s)))
}

// rateCell reads "0.95 [0.89, 0.98] (n=400)", or "—" without episodes.
func rateCell(r Rate) string {
	if r.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (n=%d)", withInterval(r), r.N)
}

// pValue gives three decimals, or two significant digits below 0.001.
func pValue(p float64) string {
	if p >= 0.001 {
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

func section(b *strings.Builder, title, caption string) {
	fmt.Fprintf(b, "## %s\n\n", title)
	if caption != "" {
		fmt.Fprintf(b, "%s\n\n", caption)
	}
}

func header(b *strings.Builder, fields ...string) {
	writeRow(b, fields)
	rule := make([]string, len(fields))
	for i := range rule {
		rule[i] = "---"
	}
	writeRow(b, rule)
}

func (rp *reporter) overview(b *strings.Builder, recs []Record) {
	tracks := distinct(recs, func(r Record) string { return r.Track }, cmp.Compare[string])
	seeds := make(map[uint64]bool)
	for _, r := range recs {
		seeds[r.Seed] = true
	}
	var seedList []string
	for _, s := range slices.Sorted(maps.Keys(seeds)) {
		seedList = append(seedList, strconv.FormatUint(s, 10))
	}
	plural := func(word string, n int) string {
		if n == 1 {
			return word
		}
		return word + "s"
	}
	// The grid's dimensions in the track's words, when one track's
	// records are reported.
	families, perturbs := "task families", "perturbations"
	if len(tracks) == 1 {
		w := rp.trackReport(tracks[0]).Words
		families, perturbs = cmp.Or(w.Families, families), cmp.Or(w.Perturbations, perturbs)
	}
	fmt.Fprintf(b, "%s records (agent × episode): %s %s, %s %s; %s %s; %s %s.\n",
		grouped(int64(len(recs))), plural("track", len(tracks)), strings.Join(tracks, ", "),
		plural("seed", len(seedList)), strings.Join(seedList, ", "),
		families, strings.Join(rp.families, ", "), perturbs, strings.Join(rp.perturbs, ", "))
	byModel := make(map[string][]string)
	for _, u := range rp.units {
		if u.model != "" {
			byModel[u.model] = append(byModel[u.model], u.agent)
		}
	}
	if len(byModel) > 0 {
		var parts []string
		for _, m := range slices.Sorted(maps.Keys(byModel)) {
			parts = append(parts, fmt.Sprintf("%s on `%s`", strings.Join(byModel[m], ", "), m))
		}
		fmt.Fprintf(b, "Models: %s.\n", strings.Join(parts, "; "))
	}
	b.WriteString("Rates read k/n as a value, its 95% Wilson interval and n, the episodes it counts.\n\n")
}

// rateTable is the agent × ambiguity-type table of one rate, task families
// pooled, with a last column for all perturbations together.
func (rp *reporter) rateTable(b *strings.Builder, title, caption string, outcome func(Record) bool) {
	section(b, title, "Task families pooled. "+caption+rp.noiseNote())
	types := rp.ambiguityTypes()
	fields := append(append([]string{"agent"}, types...), "all")
	header(b, fields...)
	for _, u := range rp.units {
		row := []string{u.label}
		for _, p := range append(slices.Clone(types), "") {
			var r Rate
			for _, rec := range u.recs {
				if rp.noise(rec.Perturbation) {
					continue
				}
				if p == "" || rec.Perturbation == p {
					r.N++
					if outcome(rec) {
						r.K++
					}
				}
			}
			row = append(row, rateCell(r))
		}
		writeRow(b, row)
	}
	b.WriteString("\n")
}

func (rp *reporter) costTable(b *strings.Builder) {
	section(b, "Cost per episode",
		"Means over each agent's episodes. Tokens per call divide all tokens by all calls; latency p50 is the mean of the per-episode medians, over episodes with a model call; wall time includes the simulation.")
	header(b, "agent", "model", "episodes", "calls/ep", "input tok/call", "output tok/call", "input tok/ep", "output tok/ep", "latency p50 ms", "steps/ep", "wall ms/ep")
	for _, u := range rp.units {
		s := summarize(u.recs)
		writeRow(b, []string{
			u.label, cmp.Or(u.model, "—"), strconv.Itoa(s.n),
			perEpisode(s.calls, s.n), tokens(s.in, s.calls), tokens(s.out, s.calls),
			tokens(s.in, s.n), tokens(s.out, s.n), mean(s.p50),
			perEpisode(s.steps, s.n), mean(s.wall),
		})
	}
	b.WriteString("\n")
}

// partialTable shows the two-robot case by agent: pooled, by what is out
// of robot 1's view, and by family (paper 001's Table 4 reports SR).
func (rp *reporter) partialTable(b *strings.Builder) {
	type row struct {
		label string
		recs  []Record
	}
	var rows [][]string
	cases := []struct{ name, label string }{{"object", "object out of view"}, {"destination", "destination out of view"}}
	for _, u := range rp.units {
		po := filter(u.recs, func(r Record) bool { return r.Perturbation == partialObservability })
		if len(po) == 0 {
			continue
		}
		groups := []row{{"all", po}}
		for _, c := range cases {
			if cr := filter(po, func(r Record) bool { return r.OutOfView == c.name }); len(cr) > 0 {
				groups = append(groups, row{c.label, cr})
			}
		}
		for _, f := range rp.families {
			if fr := filter(po, func(r Record) bool { return r.Family == f }); len(fr) > 0 {
				groups = append(groups, row{f, fr})
			}
		}
		for _, g := range groups {
			s := summarize(g.recs)
			rows = append(rows, []string{u.label, g.label, rateCell(s.sr), rateCell(s.ada), perEpisode(s.msgs, s.n)})
		}
	}
	if len(rows) == 0 {
		return
	}
	section(b, "Two robots: partial observability (paper 001, Table 4)",
		"Two robots with private views; robot 1 is given the instruction and either the block (object out of view) or its destination (destination out of view) is in robot 2's workspace, drawn per episode. SR: the block at its destination; the paper reports SR alone. ADA here is a message to the other robot; robot messages count both directions.")
	header(b, "agent", "episodes", "SR", "ADA", "robot messages/ep")
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

// singleRobotTable is paper 001's Table 2: ADA and SR by ambiguity
// category over the single-robot families at the family's own scene
// size, without partial observability and the noise perturbations, each
// category at CategoryEpisodes episodes spread over the families.
func (rp *reporter) singleRobotTable(b *strings.Builder) {
	keep := func(r Record) bool {
		return !rp.twoRobots(r.Family) && !rp.noise(r.Perturbation) && r.Perturbation != partialObservability && r.SceneSize == 0
	}
	var cats, fams []string
	for _, u := range rp.units {
		for _, r := range u.recs {
			if keep(r) {
				if !slices.Contains(cats, r.Perturbation) {
					cats = append(cats, r.Perturbation)
				}
				if !slices.Contains(fams, r.Family) {
					fams = append(fams, r.Family)
				}
			}
		}
	}
	if len(cats) == 0 {
		return
	}
	cats = slices.DeleteFunc(slices.Clone(rp.perturbs), func(p string) bool { return !slices.Contains(cats, p) })
	slices.Sort(fams)
	var rows [][]string
	for _, u := range rp.units {
		ada, sr := []string{u.label, "ADA"}, []string{u.label, "SR"}
		var all []Record
		for _, p := range cats {
			recs := rp.categorySample(filter(u.recs, func(r Record) bool { return keep(r) && r.Perturbation == p }), fams)
			all = append(all, recs...)
			s := summarize(recs)
			ada, sr = append(ada, rateCell(s.ada)), append(sr, rateCell(s.sr))
		}
		if len(all) == 0 {
			continue
		}
		s := summarize(all)
		rows = append(rows, append(ada, rateCell(s.ada)), append(sr, rateCell(s.sr)))
	}
	how := "every episode of each category, the families pooled"
	if n := rp.categoryEpisodes; n > 0 {
		var shares []string
		for i, f := range fams {
			k := n / len(fams)
			if i < n%len(fams) {
				k++
			}
			shares = append(shares, fmt.Sprintf("%s %d", f, k))
		}
		how = fmt.Sprintf("%d episodes per category, as the paper's 100 per category and 100 clear, spread over the single-robot families (%s: the episodes of lowest index of each; fewer where a family has fewer); --table2-n 0 pools every episode", n, strings.Join(shares, ", "))
	}
	section(b, "Single robot: ADA and SR by ambiguity category (paper 001, Table 2)",
		"The single-robot families ("+strings.Join(fams, ", ")+") at their own scene size, "+how+". Two-robot families, partial observability and the noise perturbations are left out (see the two-robot and robustness tables); \"all\" pools the categories shown.")
	header(b, append(append([]string{"agent", "metric"}, cats...), "all")...)
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

// categorySample takes a category's episodes as CategoryEpisodes says:
// its share from each family (fams, sorted), those of lowest episode
// index first, each with all its records (every repeat and seed); all of
// them when it is 0. It sorts a copy: filter may hand back the unit's own
// records, whose key order the other sections read.
func (rp *reporter) categorySample(recs []Record, fams []string) []Record {
	n := rp.categoryEpisodes
	if n <= 0 {
		return recs
	}
	var out []Record
	for i, f := range fams {
		k := n / len(fams)
		if i < n%len(fams) {
			k++
		}
		fr := slices.Clone(filter(recs, func(r Record) bool { return r.Family == f }))
		slices.SortStableFunc(fr, func(a, b Record) int {
			return cmp.Or(cmp.Compare(a.Episode, b.Episode), cmp.Compare(a.Repeat, b.Repeat), cmp.Compare(a.Seed, b.Seed))
		})
		episodes := 0
		for j, r := range fr {
			if j == 0 || r.Episode != fr[j-1].Episode {
				if episodes == k {
					break
				}
				episodes++
			}
			out = append(out, r)
		}
	}
	return out
}

// robustnessTable shows ADA and SR under the noise perturbations beside
// the clear episodes, task families pooled.
func (rp *reporter) robustnessTable(b *strings.Builder) {
	var cols []string
	for _, p := range rp.perturbs {
		if rp.noise(p) {
			cols = append(cols, p)
		}
	}
	if len(cols) == 0 {
		return
	}
	if slices.Contains(rp.perturbs, "none") {
		cols = append([]string{"none"}, cols...)
	}
	section(b, "Robustness: the noise perturbations",
		"Task families pooled, at their own scene size. The noise perturbations keep the instruction clear (label none) and misread the scene graph or make the robot's moves miss; none, the same episodes without noise, is the reference. They are in no \"all\" column.")
	header(b, append([]string{"agent", "metric"}, cols...)...)
	for _, u := range rp.units {
		if !slices.ContainsFunc(u.recs, func(r Record) bool { return rp.noise(r.Perturbation) }) {
			continue
		}
		ada, sr := []string{u.label, "ADA"}, []string{u.label, "SR"}
		for _, p := range cols {
			s := summarize(filter(u.recs, func(r Record) bool { return r.Perturbation == p && r.SceneSize == 0 }))
			ada, sr = append(ada, rateCell(s.ada)), append(sr, rateCell(s.sr))
		}
		writeRow(b, ada)
		writeRow(b, sr)
	}
	b.WriteString("\n")
}

// ablationTable sets SG-CoT and its variants side by side, when there are at
// least two of them.
func (rp *reporter) ablationTable(b *strings.Builder) {
	var abl []unit
	for _, u := range rp.units {
		if strings.HasPrefix(u.agent, ablationPrefix) {
			abl = append(abl, u)
		}
	}
	if len(abl) < 2 {
		return
	}
	caption := "Task families pooled; \"all\" pools the perturbations too."
	if rp.noiseNote() != "" {
		caption = "Task families pooled; \"all\" pools the perturbations too, but for the noise perturbations."
	}
	section(b, "SG-CoT ablations", caption)
	header(b, "perturbation", "agent", "ADA", "SR", "calls/ep", "input tok/ep")
	for _, p := range append([]string{""}, rp.perturbs...) {
		for _, u := range abl {
			recs := filter(u.recs, func(r Record) bool {
				return (p == "" && !rp.noise(r.Perturbation)) || r.Perturbation == p
			})
			if len(recs) == 0 {
				continue
			}
			s := summarize(recs)
			writeRow(b, []string{cmp.Or(p, "all"), u.label, rateCell(s.ada), rateCell(s.sr), perEpisode(s.calls, s.n), tokens(s.in, s.n)})
		}
	}
	b.WriteString("\n")
}

// sceneSizeTable is the series over scene sizes, when any record has one.
func (rp *reporter) sceneSizeTable(b *strings.Builder) {
	sizes := make(map[int]bool)
	sized := false
	for _, u := range rp.units {
		for _, r := range u.recs {
			sizes[r.SceneSize] = true
			sized = sized || r.SceneSize != 0
		}
	}
	if !sized {
		return
	}
	section(b, "Scene size",
		"Objects asked for on the table (\"default\": the task family's own layout) and, per episode, the objects there at the start. Task families and perturbations pooled.")
	header(b, "agent", "scene size", "objects/ep", "ADA", "SR", "input tok/ep", "calls/ep")
	for _, u := range rp.units {
		for _, size := range slices.Sorted(maps.Keys(sizes)) {
			recs := filter(u.recs, func(r Record) bool { return r.SceneSize == size })
			if len(recs) == 0 {
				continue
			}
			s := summarize(recs)
			label := "default"
			if size != 0 {
				label = strconv.Itoa(size)
			}
			writeRow(b, []string{u.label, label, perEpisode(s.objects, s.withObjects), rateCell(s.ada), rateCell(s.sr), tokens(s.in, s.n), perEpisode(s.calls, s.n)})
		}
	}
	b.WriteString("\n")
}

// pair is two units to compare: on one track's records, or on every track
// both ran when track is "".
type pair struct {
	a, b  unit
	track string
}

// pairs lists the (A, B) units to compare, as opts says.
func (rp *reporter) pairs(opts ReportOptions) ([]pair, error) {
	var out []pair
	if opts.AllPairs {
		for i, a := range rp.units {
			for _, b := range rp.units[i+1:] {
				out = append(out, pair{a: a, b: b})
			}
		}
		return out, nil
	}
	if opts.Baseline != "" {
		base, err := findBaseline(opts.Baseline, rp.units)
		if err != nil {
			return nil, err
		}
		for _, u := range rp.units {
			if u.label != base.label {
				out = append(out, pair{a: u, b: base})
			}
		}
		return out, nil
	}
	// Each track has its own default baseline, compared with the agents
	// that use a model on that track.
	for _, track := range rp.tracks {
		name := rp.trackReport(track).baseline()
		var on []unit
		for _, u := range rp.units {
			if ranOn(u, track) {
				on = append(on, u)
			}
		}
		if !slices.ContainsFunc(on, func(u unit) bool { return u.label == name || u.agent == name }) {
			continue
		}
		base, err := findBaseline(name, on)
		if err != nil {
			return nil, err
		}
		for _, u := range on {
			if u.label != base.label && u.model != "" {
				out = append(out, pair{a: u, b: base, track: track})
			}
		}
	}
	return out, nil
}

func ranOn(u unit, track string) bool {
	return slices.ContainsFunc(u.recs, func(r Record) bool { return r.Track == track })
}

// findBaseline returns the unit named name, by label or by agent; one
// agent under several models must be named by its label.
func findBaseline(name string, units []unit) (unit, error) {
	var base []unit
	var labels []string
	for _, u := range units {
		labels = append(labels, u.label)
		if u.label == name || u.agent == name {
			base = append(base, u)
		}
	}
	switch {
	case len(base) == 0:
		return unit{}, fmt.Errorf("report: baseline agent %q has no records (agents: %s)", name, strings.Join(labels, ", "))
	case len(base) > 1:
		return unit{}, fmt.Errorf("report: baseline agent %q ran with several models; name one as %q", name, base[0].label)
	}
	return base[0], nil
}

// pairedTable compares each pair track by track. On the household track a
// game's success is SR@k, k the trials it was allowed, so the metric is
// labelled with the most trials any household game of the run played, the
// k of the success-by-trial table.
func (rp *reporter) pairedTable(b *strings.Builder, pairs []pair) {
	var rows [][]string
	var notes []string
	k := map[string]int{} // the trials allowed, as far as the records show: the most any game played
	for _, u := range rp.units {
		for _, r := range u.recs {
			if rp.trackReport(r.Track).SuccessByTrial {
				k[r.Track] = max(k[r.Track], r.Trials)
			}
		}
	}
	for _, pr := range pairs {
		tracks := []string{pr.track}
		if pr.track == "" {
			tracks = distinct(pr.a.recs, func(r Record) string { return r.Track }, cmp.Compare[string])
			tracks = slices.DeleteFunc(tracks, func(track string) bool { return !ranOn(pr.b, track) })
		}
		for _, track := range tracks {
			onTrack := func(r Record) bool { return r.Track == track }
			a, bs := filter(pr.a.recs, onTrack), filter(pr.b.recs, onTrack)
			sr := "SR"
			if k[track] > 0 {
				sr = fmt.Sprintf("SR@%d", k[track])
			}
			for _, m := range []struct {
				name    string
				outcome func(Record) bool
			}{
				{sr, func(r Record) bool { return r.Success }},
				{"ADA", func(r Record) bool { return r.ADA }},
			} {
				p := McNemar(a, bs, m.outcome)
				if p.Pairs == 0 {
					continue
				}
				if note := rp.trackReport(track).PairedNote; note != "" && !slices.Contains(notes, note) {
					notes = append(notes, note)
				}
				rows = append(rows, []string{
					pr.a.label, pr.b.label, m.name, strconv.Itoa(p.Pairs),
					withInterval(p.RateA()), withInterval(p.RateB()),
					strconv.Itoa(p.B), strconv.Itoa(p.C), pValue(p.P),
				})
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	caption := "A and B on the same episodes (same track, family, perturbation, seed, episode index and scene size). b: A succeeded and B failed; c: the reverse. p: exact two-sided p-value from b and c, uncorrected for the number of comparisons."
	for _, note := range notes {
		caption += " " + note
	}
	section(b, "Paired comparisons (McNemar's exact test)", caption)
	header(b, "A", "B", "metric", "pairs", "A rate", "B rate", "b (A only)", "c (B only)", "p")
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}
