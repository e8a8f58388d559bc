package reports

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// partialObservability is the perturbation of the partial-observability
// table. The name is spelled out here because the results packages import
// nothing of the project but one another.
const partialObservability = "partial_observability"

// defaultPerturbations orders the ambiguity types as the papers do: the clear
// case, the three kinds of ambiguity, then the two-robot case.
var defaultPerturbations = []string{"none", "absence", "multiplicity", "underspecified", partialObservability}

// Options say how [Write] orders a report's rows and columns, which agents
// it compares pair by pair, and what each track's records get.
type Options struct {
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
	// baseline (Track.Baseline), compared only with the agents that
	// use a model on that track, and no comparisons on a track that names
	// none or where it is absent; a baseline that is named but absent is
	// an error.
	Baseline string
	// AllPairs compares every pair of agents instead (Baseline is ignored).
	AllPairs bool
	// Plots are the plots written next to the report, as [DrawPlots]
	// returns them; each is linked under its section, or in a section
	// "Plots" when the report has not that section. Empty: no plot is
	// mentioned.
	Plots []PlotLink
	// SVG has the built-in plots drawn as SVG instead of PNG (ambibench
	// view's, which stay sharp at any size); [DrawPlots] then names
	// their files .svg. A track's own plot ([NewPlot]) gets it too.
	SVG bool
	// Tracks says, by track name, what each track's records get: its
	// sections, baseline, plots and words (a track's contribution to the
	// report, as bench.Track's Report method gives it); a track not named
	// gets the Track zero value's.
	Tracks map[string]Track
	// Cut adds a published cut of the results: the section of the
	// TrialCut of that name, which the records' tracks list (Cuts);
	// empty adds none.
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
	Shard *results.RunShard
}

// Write writes a Markdown report of recs: an overview, then the sections
// the records' tracks list (opts.Tracks: ADA and SR by agent and ambiguity
// type, cost per episode, success by trial and reflection statistics,
// partial observability by task family, an ablation group side by side,
// the scene-size series, Top-k, …), then McNemar's exact test between
// agents on the same episodes. A section with nothing to show is left
// out. Every rate comes with its n and 95% Wilson interval.
//
// Rows are agents, labelled by name, or "name (model)" when one name ran with
// several models. The output depends only on recs as a set and on opts, never
// on the order of recs. Two records of the same episode (same
// [results.Record.Key])
// are an error, as they would count twice.
//
// Write is [New], [Report.Add] of each record and [Report.Write]; a
// caller that reads records from a file adds them as it reads.
func Write(w io.Writer, recs []results.Record, opts Options) error {
	// A Report finds an episode twice among the scored records it keeps;
	// over a slice, infrastructure errors are looked at too, as before.
	if k, _, _, dup := results.FirstDuplicate(recs); dup {
		return fmt.Errorf("report: episode %s appears twice", k)
	}
	rep := New(opts)
	for _, r := range recs {
		if err := rep.Add(r); err != nil {
			return err
		}
	}
	return rep.Write(w)
}

// A Report is a report made a record at a time, for records too many to
// hold: it keeps each scored record packed, in a few dozen bytes, and
// adds up the rest (the infrastructure losses, the suite versions) as
// they come. Add every record, then Write.
type Report struct {
	opts   Options
	s      *store
	scored []int32
	suites map[int]bool
	tracks map[string]bool // of every record, scored or not
	infra  InfraTally
}

// New returns an empty report with options opts.
func New(opts Options) *Report {
	return &Report{opts: opts, s: newStore(), suites: map[int]bool{}, tracks: map[string]bool{}}
}

// Add adds a record. A second scored record of one episode, which would
// count twice, is an error of Write's (found when the records are sorted,
// at no cost an episode); two of an infrastructure error are not looked
// for, so a reader checks its records first, where it can name the line
// ([results.OnceEach]).
func (rep *Report) Add(r results.Record) error {
	rep.suites[r.Suite] = true
	rep.tracks[r.Track] = true
	rep.infra.Add(&r)
	if r.Scored() {
		rep.scored = append(rep.scored, int32(rep.s.add(r)))
	}
	return nil
}

// Write writes the report of the records added, as [Write] does.
func (rep *Report) Write(w io.Writer) error {
	opts := rep.opts
	var suites []string
	for _, v := range slices.Sorted(maps.Keys(rep.suites)) {
		suites = append(suites, strconv.Itoa(v))
	}
	if len(suites) > 1 {
		return fmt.Errorf("report: the records come from suite versions %s, whose episodes or scores differ; report each run apart", strings.Join(suites, " and "))
	}
	if opts.Cut != "" {
		if err := checkCut(opts.Cut, slices.Sorted(maps.Keys(rep.tracks)), opts.Tracks); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	recs := recList{s: rep.s, idx: rep.scored}
	rp, err := newReporter(recs, opts)
	if err != nil {
		return err
	}
	links := slices.Clone(opts.Plots)
	pairs, err := rp.pairs(opts)
	if err != nil {
		return err
	}

	var b strings.Builder
	b.WriteString("# ambibench report\n\n")
	if len(suites) > 0 {
		fmt.Fprintf(&b, "Suite version %s.\n", strings.Join(suites, ", "))
	}
	if sh := opts.Shard; sh != nil {
		fmt.Fprintf(&b, "Shard %d of %d of a run: these tables are of its part of the grid alone (ambibench merge joins the shards into the whole run).\n", sh.Index, sh.Count)
	}
	if err := InfraLossesMarkdown(&b, rep.infra.Losses()); err != nil {
		return err
	}
	if recs.len() == 0 {
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

// newReporter groups the scored records recs into units and finds the
// grid's dimensions.
func newReporter(recs recList, opts Options) (*reporter, error) {
	perturbOrder := opts.Perturbations
	if len(perturbOrder) == 0 {
		perturbOrder = defaultPerturbations
	}
	units, err := groupUnits(recs, opts.Agents)
	if err != nil {
		return nil, err
	}
	return &reporter{
		tracks:           distinct(recs.all(), func(r results.Record) string { return r.Track }, cmp.Compare[string]),
		units:            units,
		perturbs:         distinct(recs.all(), func(r results.Record) string { return r.Perturbation }, stats.OrderBy(perturbOrder)),
		families:         distinct(recs.all(), func(r results.Record) string { return r.Family }, cmp.Compare[string]),
		trackReports:     opts.Tracks,
		cut:              opts.Cut,
		categoryEpisodes: opts.CategoryEpisodes,
	}, nil
}

// trackReport is what a track's records get.
func (rp *reporter) trackReport(track string) Track { return rp.trackReports[track] }

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
	sub.parent = rp
	if !slices.ContainsFunc(rp.tracks, func(t string) bool { return !slices.Contains(tracks, t) }) {
		return &sub // every track's records: nothing to leave out
	}
	sub.units = nil
	for _, u := range rp.units {
		u.recs = u.recs.filter(func(r results.Record) bool { return slices.Contains(tracks, r.Track) })
		if u.recs.len() > 0 {
			sub.units = append(sub.units, u)
		}
	}
	sub.parent = rp
	return &sub
}

type reporter struct {
	tracks             []string
	units              []unit
	perturbs, families []string
	trackReports       map[string]Track
	parent             *reporter // of a reporter over some tracks' records (only)
	cut                string    // Options.Cut
	categoryEpisodes   int       // Options.CategoryEpisodes
	err                error     // a track's own section failed
}

func (rp *reporter) overview(b *strings.Builder, recs recList) {
	tracks := distinct(recs.all(), func(r results.Record) string { return r.Track }, cmp.Compare[string])
	seeds := make(map[uint64]bool)
	for r := range recs.all() {
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
		grouped(int64(recs.len())), plural("track", len(tracks)), strings.Join(tracks, ", "),
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
