package results

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// EpisodeKey identifies an episode played by an agent, whichever model
// played it: [Record.Key] without the model — track, family,
// perturbation, agent, seed, episode index and, when set, scene size and
// repeat (so two runs with repeats pair repeat with repeat). It is
// the key [Compare] pairs two runs' records by: the model (and the
// agent's own options, which records do not carry) is what a comparison
// compares, so it may differ; everything that makes the episode what it
// is may not. Example: "tabletop"/"pick_place"/"absence"/"sgcot"/42/7.
func (r Record) EpisodeKey() string { return r.key(true, true, false) }

// A CompareMetric is a binary outcome [Compare] compares: SR, ADA or Top1.
type CompareMetric struct {
	Name string
	Of   func(Record) bool
}

// The metrics [Compare] knows, by name.
var (
	MetricSR   = CompareMetric{"SR", func(r Record) bool { return r.Success }}
	MetricADA  = CompareMetric{"ADA", func(r Record) bool { return r.ADA }}
	MetricTop1 = CompareMetric{"Top1", func(r Record) bool { return r.Top1 }}
)

// CompareMetricNames are the names --metrics takes.
var CompareMetricNames = []string{MetricSR.Name, MetricADA.Name, MetricTop1.Name}

// cellMetrics are the metrics a cell is scored by: Top-1 for a cell of
// queries (records with a Query: the semmap track), SR and ADA for a
// cell of tasks. The rule reads the records, not the track's name.
func cellMetrics(recs []Record) []CompareMetric {
	for _, r := range recs {
		if r.Query != "" {
			return []CompareMetric{MetricTop1}
		}
	}
	return []CompareMetric{MetricSR, MetricADA}
}

// CompareOptions set the gate of [Compare].
type CompareOptions struct {
	// Alpha is the significance level of the Holm-adjusted p-values
	// (0: 0.05).
	Alpha float64
	// MinEffect is the smallest drop of a rate, absolute, that fails the
	// gate (0.05 means five points); a significant drop smaller than it
	// is "same".
	MinEffect float64
	// Agents are the agents gated; empty means all. Every agent is
	// compared and counts in the correction either way.
	Agents []string
	// Metrics are the metrics gated, by name (SR, ADA, Top1); empty means
	// each cell's own: SR and ADA for tasks, Top1 for queries.
	Metrics []string
}

// A Comparison is one agent on one cell and one metric, BASE against NEW
// on the episodes both played. Paired's A is BASE and its B is NEW: B
// counts pairs BASE won and NEW lost, C the other way round.
type Comparison struct {
	Agent, Track, Family, Perturbation string
	SceneSize                          int
	Metric                             string
	Paired
	Holm    float64 // P adjusted by Holm's step-down over all comparisons
	Gated   bool    // counts for the exit status
	Verdict string  // "worse", "better" or "same"
}

// Cell names the comparison's cell: "pick_place/absence", with a scene
// size "pick_place/absence/n=24".
func (c Comparison) Cell() string {
	s := c.Family + "/" + c.Perturbation
	if c.SceneSize != 0 {
		s += "/n=" + strconv.Itoa(c.SceneSize)
	}
	return s
}

// Diff is NEW's rate minus BASE's.
func (c Comparison) Diff() float64 {
	if c.Pairs == 0 {
		return 0
	}
	return float64(c.C-c.B) / float64(c.Pairs)
}

// Failed reports whether the comparison fails the gate: gated and worse.
func (c Comparison) Failed() bool { return c.Gated && c.Verdict == VerdictWorse }

// Verdicts of a comparison.
const (
	VerdictWorse  = "worse"
	VerdictBetter = "better"
	VerdictSame   = "same"
)

// CompareResult is what [Compare] found.
type CompareResult struct {
	Options     CompareOptions // with defaults filled in
	Comparisons []Comparison   // by agent, track, cell, metric
	// InfraPairs are the pairs left out because either side ended in an
	// infrastructure error; InfraBase and InfraNew count them by side
	// (a pair with both counts on both).
	InfraPairs, InfraBase, InfraNew int
	// OnlyBase and OnlyNew are the agent-and-cell groups found on one
	// side only ("sgcot tabletop pick_place/absence"), left out.
	OnlyBase, OnlyNew []string
	// BaseModels and NewModels are the models each side's records name.
	BaseModels, NewModels []string
}

// Failures are the comparisons that fail the gate.
func (r CompareResult) Failures() []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.Failed() {
			out = append(out, c)
		}
	}
	return out
}

// Pairs is the number of paired episodes compared (each metric counts
// the same pairs).
func (r CompareResult) Pairs() int {
	seen := map[string]bool{}
	n := 0
	for _, c := range r.Comparisons {
		k := c.Agent + "\x00" + c.Track + "\x00" + c.Cell()
		if !seen[k] {
			seen[k] = true
			n += c.Pairs
		}
	}
	return n
}

// UnpairedError is the refusal of two runs whose episodes do not pair.
type UnpairedError struct{ Reason string }

func (e *UnpairedError) Error() string { return "episodes that do not pair: " + e.Reason }

// group is an agent on a cell.
type group struct {
	agent, track, family, perturbation string
	size                               int
}

func (g group) String() string {
	s := g.agent + " " + g.track + " " + g.family + "/" + g.perturbation
	if g.size != 0 {
		s += "/n=" + strconv.Itoa(g.size)
	}
	return s
}

func groupOf(r Record) group {
	return group{r.Agent, r.Track, r.Family, r.Perturbation, r.SceneSize}
}

// side indexes one run's records by EpisodeKey, within each group.
type side struct {
	name   string
	groups map[group]map[string]Record
	models []string
}

func index(name string, recs []Record) (side, error) {
	s := side{name: name, groups: map[group]map[string]Record{}}
	if k, i, j, dup := firstRepeat(recs); dup {
		// One of the two would pair and the other be dropped unseen.
		return side{}, &UnpairedError{fmt.Sprintf("%s holds episode %s twice (records %d and %d); a run records each episode once", name, k, i+1, j+1)}
	}
	model := map[string]string{}
	for _, r := range recs {
		if m, ok := model[r.Agent]; ok && m != r.Model {
			return side{}, &UnpairedError{fmt.Sprintf("%s holds agent %s under two models, %q and %q; compare runs of one model per agent", name, r.Agent, m, r.Model)}
		}
		model[r.Agent] = r.Model
		g := groupOf(r)
		if s.groups[g] == nil {
			s.groups[g] = map[string]Record{}
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

// Compare pairs the records of two runs by [Record.EpisodeKey] and
// compares, for each agent and cell (family × perturbation, and scene
// size), the cell's metrics: SR and ADA, or Top1 for a cell of queries.
// Each comparison gets McNemar's exact p from its discordant pairs, the
// p adjusted by Holm's method over all the comparisons made, and a
// verdict: worse (or better) when the adjusted p is below Alpha and the
// rate moved by MinEffect or more, same otherwise.
//
// Pairs where either side ended in an infrastructure error are left out
// and counted. A group (agent and cell) on one side only is left out and
// named. Within a group on both sides every episode must pair: if one
// does not, or nothing pairs at all, Compare returns an *UnpairedError
// that says which.
func Compare(base, new []Record, opts CompareOptions) (CompareResult, error) {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	for _, m := range opts.Metrics {
		if !slices.Contains(CompareMetricNames, m) {
			return CompareResult{}, fmt.Errorf("unknown metric %q (have %s)", m, strings.Join(CompareMetricNames, ", "))
		}
	}
	res := CompareResult{Options: opts}
	b, err := index("BASE", base)
	if err != nil {
		return res, err
	}
	n, err := index("NEW", new)
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
		if err := samePairs(g, br, nr); err != nil {
			return res, err
		}
		var pb, pn []Record
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
		for _, m := range cellMetrics(slices.Concat(pb, pn)) {
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
			c.P = McNemarP(c.B, c.C)
			c.Gated = (len(opts.Agents) == 0 || slices.Contains(opts.Agents, g.agent)) &&
				(len(opts.Metrics) == 0 || slices.Contains(opts.Metrics, m.Name))
			res.Comparisons = append(res.Comparisons, c)
		}
	}
	if len(res.Comparisons) == 0 {
		why := "no agent and cell is in both runs"
		if len(b.groups) > 0 && len(n.groups) > 0 {
			why += fmt.Sprintf(" (BASE has %s, NEW has %s)", firstGroups(b), firstGroups(n))
		}
		return res, &UnpairedError{why}
	}
	ps := make([]float64, len(res.Comparisons))
	for i, c := range res.Comparisons {
		ps[i] = c.P
	}
	for i, h := range Holm(ps) {
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

func compareGroups(x, y group) int {
	return cmp.Or(cmp.Compare(x.agent, y.agent), cmp.Compare(x.track, y.track), cmp.Compare(x.family, y.family),
		cmp.Compare(x.perturbation, y.perturbation), cmp.Compare(x.size, y.size))
}

func firstGroups(s side) string {
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
func samePairs(g group, b, n map[string]Record) error {
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

// Holm adjusts p-values for multiple comparisons by Holm's step-down
// method: sorted ascending, the i-th smallest (from 0) becomes
// max over j ≤ i of min(1, (m−j)·p_j). The result is in the order of ps.
// It controls the family-wise error rate at any dependence between the
// tests.
func Holm(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	out := make([]float64, m)
	run := 0.0
	for j, i := range order {
		run = max(run, min(1, float64(m-j)*ps[i]))
		out[i] = run
	}
	return out
}

// A FieldDiff is a scored field in which two paired records differ.
type FieldDiff struct {
	Key, Field, Base, New string // Key is the PlainKey of BASE's record
}

func (d FieldDiff) String() string {
	return fmt.Sprintf("%s: %s is %s in BASE, %s in NEW", d.Key, d.Field, d.Base, d.New)
}

// unscoredFields are the fields [ExactDiff] ignores: the model, which a
// comparison compares, and the timings, which no two runs share.
var unscoredFields = map[string]bool{"model": true, "wall_ms": true, "latency_p50_ms": true, "latency_p95_ms": true}

// ExactDiff pairs the records as [Compare] does and lists every field,
// but the model and the timings, in which a pair differs, by key and then
// by field in the record's order. Records without a partner are not
// fields of a pair and are not listed; Compare refuses them.
func ExactDiff(base, new []Record) []FieldDiff {
	nk := make(map[string]Record, len(new))
	for _, r := range new {
		nk[r.EpisodeKey()] = r
	}
	bk := make(map[string]Record, len(base))
	for _, r := range base {
		bk[r.EpisodeKey()] = r
	}
	var out []FieldDiff
	rt := reflect.TypeFor[Record]()
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

// WriteCompareText writes the comparison as an aligned table, one row per
// comparison, after a summary.
func WriteCompareText(w io.Writer, r CompareResult) error {
	writeCompareSummary(w, r, false)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\ttrack\tcell\tmetric\tn\tbase\tnew\tdiff\tb\tc\tp\tp(Holm)\tverdict")
	for _, c := range r.Comparisons {
		fmt.Fprintln(tw, strings.Join(compareRow(c), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, compareVerdict(r))
	return err
}

// WriteCompareMarkdown writes the comparison for a pull-request comment:
// the verdict, the summary, a table of the comparisons that moved (worse
// or better), and every comparison in a collapsed table.
func WriteCompareMarkdown(w io.Writer, r CompareResult) error {
	fmt.Fprintf(w, "### ambibench compare: %s\n\n", compareVerdict(r))
	writeCompareSummary(w, r, true)
	header := "| agent | track | cell | metric | n | base | new | diff | b | c | p | p (Holm) | verdict |\n" +
		"| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
	table := func(cs []Comparison) {
		io.WriteString(w, header)
		for _, c := range cs {
			row := compareRow(c)
			if c.Failed() {
				row[len(row)-1] = "**" + row[len(row)-1] + "**"
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
	var moved []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict != VerdictSame {
			moved = append(moved, c)
		}
	}
	if len(moved) == 0 {
		io.WriteString(w, "\nNo comparison moved significantly.\n")
	} else {
		io.WriteString(w, "\n")
		table(moved)
	}
	fmt.Fprintf(w, "\n<details><summary>All %d comparisons</summary>\n\n", len(r.Comparisons))
	table(r.Comparisons)
	_, err := io.WriteString(w, "\n</details>\n")
	return err
}

func compareRow(c Comparison) []string {
	gate := ""
	if !c.Gated {
		gate = " (not gated)"
	}
	return []string{c.Agent, c.Track, c.Cell(), c.Metric, strconv.Itoa(c.Pairs),
		fmt.Sprintf("%.3f", c.RateA().Value()), fmt.Sprintf("%.3f", c.RateB().Value()), fmt.Sprintf("%+.3f", c.Diff()),
		strconv.Itoa(c.B), strconv.Itoa(c.C), formatP(c.P), formatP(c.Holm), c.Verdict + gate}
}

// formatP writes a p-value with three significant digits, small ones in
// exponent form.
func formatP(p float64) string {
	if p >= 0.001 {
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

func compareVerdict(r CompareResult) string {
	f := r.Failures()
	if len(f) == 0 {
		return "PASS: no gated comparison is significantly worse"
	}
	var names []string
	for _, c := range f[:min(len(f), 5)] {
		names = append(names, fmt.Sprintf("%s %s %s %s %+.3f (p=%s, Holm p=%s)", c.Agent, c.Track, c.Cell(), c.Metric, c.Diff(), formatP(c.P), formatP(c.Holm)))
	}
	s := fmt.Sprintf("FAIL: %d gated %s significantly worse by %.3f or more: %s", len(f), plural(len(f), "comparison is", "comparisons are"), r.Options.MinEffect, strings.Join(names, "; "))
	if len(f) > 5 {
		s += fmt.Sprintf("; and %d more", len(f)-5)
	}
	return s
}

func writeCompareSummary(w io.Writer, r CompareResult, md bool) {
	item := func(format string, args ...any) {
		if md {
			io.WriteString(w, "- ")
		}
		fmt.Fprintf(w, format+"\n", args...)
	}
	models := func(ms []string) string {
		for i, m := range ms {
			if m == "" {
				ms[i] = "(none)"
			}
		}
		return strings.Join(ms, ", ")
	}
	item("models: BASE %s; NEW %s", models(slices.Clone(r.BaseModels)), models(slices.Clone(r.NewModels)))
	item("%d paired episodes; %d %s left out for infrastructure errors (%d in BASE, %d in NEW)",
		r.Pairs(), r.InfraPairs, plural(r.InfraPairs, "pair", "pairs"), r.InfraBase, r.InfraNew)
	gated := func(list []string, all string) string {
		if len(list) == 0 {
			return all
		}
		return strings.Join(list, ", ")
	}
	item("gate: α %g after Holm's correction over %d comparisons, minimum effect %g; agents gated: %s; metrics gated: %s",
		r.Options.Alpha, len(r.Comparisons), r.Options.MinEffect, gated(r.Options.Agents, "all"), gated(r.Options.Metrics, "each cell's (SR and ADA; Top1 for queries)"))
	only := func(which string, gs []string) {
		if len(gs) == 0 {
			return
		}
		s := strings.Join(gs[:min(len(gs), 5)], "; ")
		if len(gs) > 5 {
			s += fmt.Sprintf("; and %d more", len(gs)-5)
		}
		item("only in %s, not compared: %d agent-and-cell %s: %s", which, len(gs), plural(len(gs), "group", "groups"), s)
	}
	only("BASE", r.OnlyBase)
	only("NEW", r.OnlyNew)
	if !md {
		io.WriteString(w, "\n")
	}
}

// ComparedSettings are the run.json settings in which two runs may differ
// and still be compared: like the model, they change how an agent
// behaves, not which episodes it plays (dyref's and dyref-ambiguity's
// routers; the cap on a live model's reply). [CompareSettings] lists them
// as differences and refuses none.
var ComparedSettings = []string{"max_reply_bytes", "router", "router_ambiguity"}

// PromptSettingPrefix starts the settings of the prompt templates a run
// read in place of the built-in ones (run --prompts; agents/prompt's
// SettingPrefix): they change what an agent reads, not which episodes it
// plays, so they are compared as ComparedSettings are.
const PromptSettingPrefix = "prompt:"

// SuiteSetting is the setting of the suite version.
const SuiteSetting = "suite"

// CompareSettingsError is the refusal of two runs whose settings make
// their episodes differ.
type CompareSettingsError struct {
	Changes []SettingChange // Old is BASE's, New is NEW's
	Suite   bool            // the suite versions differ (and were not allowed to)
}

func (e *CompareSettingsError) Error() string {
	var b strings.Builder
	b.WriteString("BASE and NEW were run with settings that make their episodes differ, so they do not pair:")
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "\n  %s: %s in BASE, %s in NEW", c.Name, showSetting(c.Old), showSetting(c.New))
	}
	if e.Suite {
		b.WriteString("\nthe suite versions differ: episodes and scoring may have changed; pass --allow-suite-mismatch to compare anyway")
	}
	return b.String()
}

func showSetting(v string) string {
	if v == "" {
		return "(unset)"
	}
	return v
}

// CompareSettings checks that two runs' settings let their episodes pair.
// Every setting must be equal but those of [ComparedSettings], which are
// returned as differences to show; the suite version may differ only with
// allowSuite (it is then returned as a difference too). The dataset's
// path ("data") may differ when both runs name the same data_hash: the
// same files in another place.
func CompareSettings(base, new RunFile, allowSuite bool) (compared []SettingChange, err error) {
	e := &CompareSettingsError{}
	for _, c := range base.Changes(new.Settings) {
		switch {
		case slices.Contains(ComparedSettings, c.Name) || strings.HasPrefix(c.Name, PromptSettingPrefix):
			compared = append(compared, c)
		case c.Name == SuiteSetting && allowSuite:
			compared = append(compared, c)
		case c.Name == "data" && base.Settings["data_hash"] != "" && base.Settings["data_hash"] == new.Settings["data_hash"]:
		default:
			e.Changes = append(e.Changes, c)
			if c.Name == SuiteSetting {
				e.Suite = true
			}
		}
	}
	if len(e.Changes) > 0 {
		return compared, e
	}
	return compared, nil
}
