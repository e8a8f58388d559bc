package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// The semmap track's sections: Top-k by query type, against map size, and
// the over-reflection analysis of the agentic-workflows paper.

// pooledModes labels the rows that pool the input modes. The modes show
// the same (map, query) pairs twice, so a pooled row counts each pair
// twice and its interval, which takes the two as independent, is too
// narrow; the label says so wherever the row appears.
const pooledModes = "both modes (each pair twice)"

// semmapModes are the input modes of the semmap records, in name order
// (certainty, then uncertainty): the Perturbation of a semmap record.
func (rp *reporter) semmapModes() []string {
	return distinct(rp.allRecords(), func(r results.Record) string { return r.Perturbation }, cmp.Compare[string])
}

func inMode(m string) func(results.Record) bool {
	return func(r results.Record) bool { return r.Perturbation == m }
}

// topKRow is one row of the Top-k table over rs.
func topKRow(label, mode, group string, rs recList) []string {
	var t1, t2, t3, ta stats.Rate
	hallIDs, hallOf, unread := 0, 0, 0
	for r := range rs.all() {
		t1.N, t2.N, t3.N, ta.N = t1.N+1, t2.N+1, t3.N+1, ta.N+1
		t1.K += b2i(r.Top1)
		t2.K += b2i(r.Top2)
		t3.K += b2i(r.Top3)
		ta.K += b2i(r.TopAny)
		hallIDs += r.Hallucinated
		hallOf += len(r.Answer)
		unread += b2i(r.NoReadableAnswer)
	}
	hal := "—"
	if hallOf > 0 {
		hal = fmt.Sprintf("%d of %d ids", hallIDs, hallOf)
	}
	return []string{label, mode, group, rateCell(t1), rateCell(t2), rateCell(t3), rateCell(ta), hal, fmt.Sprintf("%d of %d", unread, rs.len())}
}

// topKTable writes Top-1, Top-2, Top-3 and Top-Any by agent, input mode
// and query type. Each mode has its own rows, n and interval; an agent
// run in both modes gets one pooled row after them, labelled as such.
func (rp *reporter) topKTable(b *strings.Builder) {
	modes := rp.semmapModes()
	var rows [][]string
	for _, u := range rp.units {
		recs := u.recs
		if recs.len() == 0 {
			continue
		}
		// Rows: all, each query type, each difficulty, and each dataset
		// when there are several.
		type group struct {
			label string
			keep  func(results.Record) bool
		}
		groups := []group{{"all", func(results.Record) bool { return true }}}
		for _, f := range rp.families {
			groups = append(groups, group{f, func(r results.Record) bool { return r.Family == f }})
		}
		for _, d := range distinct(recs.all(), func(r results.Record) string { return r.Difficulty }, cmp.Compare[string]) {
			if d != "" {
				groups = append(groups, group{"difficulty " + d, func(r results.Record) bool { return r.Difficulty == d }})
			}
		}
		if sets := distinct(recs.all(), func(r results.Record) string { return r.Dataset }, cmp.Compare[string]); len(sets) > 1 {
			for _, d := range sets {
				groups = append(groups, group{"dataset " + d, func(r results.Record) bool { return r.Dataset == d }})
			}
		}
		played := 0
		for _, m := range modes {
			inM := recs.filter(inMode(m))
			if inM.len() == 0 {
				continue
			}
			played++
			for _, gr := range groups {
				if rs := inM.filter(gr.keep); rs.len() > 0 {
					rows = append(rows, topKRow(u.label, m, gr.label, rs))
				}
			}
		}
		if played > 1 {
			rows = append(rows, topKRow(u.label, pooledModes, "all", recs))
		}
	}
	if len(rows) == 0 {
		return
	}
	caption := "Semantic-map queries (docs/metrics.md's Top-k): both the answer and the truth empty is a hit at every k; an empty answer to a query with a truth, or a missing answer, is a miss. " +
		"Each input mode is its own run over the same (map, query) pairs, with its own n and interval. " +
		"Hallucinated: answered ids that are not in the map. No answer: episodes without a readable answer (the final reply could not be read, or none came), each a miss at every k whatever the truth."
	if len(modes) > 1 {
		caption += " The rows \"" + pooledModes + "\" pool the modes: every pair counts twice, once per mode, and the interval, which takes the two as independent, is too narrow."
	}
	section(b, "Top-k by input mode, query type and difficulty", caption)
	header(b, "agent", "mode", "queries", "Top-1", "Top-2", "Top-3", "Top-Any", "hallucinated", "no answer")
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
	rp.originTable(b)
}

// noOrigin labels the records of maps whose dataset gives no origin, in
// a report where others have one.
const noOrigin = "(no origin)"

// originTable writes Top-k by the maps' origin and query type, the split
// the agentic-workflows paper reports its results in (ScanNet and
// SceneNN maps), when the records carry origins (a dataset's
// dataset.yaml gives them); nothing otherwise.
func (rp *reporter) originTable(b *strings.Builder) {
	origins := distinct(rp.allRecords(), func(r results.Record) string { return r.MapOrigin }, cmp.Compare[string])
	if !slices.ContainsFunc(origins, func(o string) bool { return o != "" }) {
		return
	}
	modes := rp.semmapModes()
	var rows [][]string
	for _, u := range rp.units {
		for _, m := range modes {
			inM := u.recs.filter(inMode(m))
			for _, o := range origins {
				inO := inM.filter(func(r results.Record) bool { return r.MapOrigin == o })
				if inO.len() == 0 {
					continue
				}
				label := o
				if o == "" {
					label = noOrigin
				}
				rows = append(rows, slices.Insert(topKRow(u.label, m, "all", inO), 2, label))
				for _, f := range rp.families {
					if rs := inO.filter(func(r results.Record) bool { return r.Family == f }); rs.len() > 0 {
						rows = append(rows, slices.Insert(topKRow(u.label, m, f, rs), 2, label))
					}
				}
			}
		}
	}
	section(b, "Top-k by map origin and query type",
		"The rows above split by where each map comes from, as the dataset's description gives it (the agentic-workflows paper splits its results into ScanNet and SceneNN maps), each input mode on its own rows. Columns as above.")
	header(b, "agent", "mode", "origin", "queries", "Top-1", "Top-2", "Top-3", "Top-Any", "hallucinated", "no answer")
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

// mapSizeTable writes Top-1 and Top-Any against the number of objects in
// the map, one block of rows per input mode.
func (rp *reporter) mapSizeTable(b *strings.Builder) {
	var sizes []int
	for _, u := range rp.units {
		for r := range u.recs.all() {
			if !slices.Contains(sizes, r.MapObjects) {
				sizes = append(sizes, r.MapObjects)
			}
		}
	}
	if len(sizes) < 2 {
		return
	}
	slices.Sort(sizes)
	section(b, "Top-k against map size", "Query types pooled; one row per input mode and map size (objects shown to the agent).")
	header(b, "agent", "mode", "objects", "Top-1", "Top-Any", "input tok/ep")
	modes := rp.semmapModes()
	for _, u := range rp.units {
		recs := u.recs
		for _, m := range modes {
			inM := recs.filter(inMode(m))
			for _, n := range sizes {
				rs := inM.filter(func(r results.Record) bool { return r.MapObjects == n })
				if rs.len() == 0 {
					continue
				}
				var t1, ta stats.Rate
				tok := 0
				for r := range rs.all() {
					t1.N, ta.N = t1.N+1, ta.N+1
					t1.K += b2i(r.Top1)
					ta.K += b2i(r.TopAny)
					tok += r.InputTokens
				}
				writeRow(b, []string{u.label, m, fmt.Sprint(n), rateCell(t1), rateCell(ta), tokens(tok, rs.len())})
			}
		}
	}
	b.WriteString("\n")
}

// Over-reflection kinds: why a reflection workflow's answer lost to the
// baseline's on the same query.
const (
	overAdded        = "objects added where the truth is empty"
	overRemoved      = "relevant object removed"
	overHallucinated = "hallucinated ids"
	overReordered    = "reordered or replaced"
	overUnread       = "no readable answer"
)

// OverReflection classifies a pair where the baseline's answer scored
// Top-1 and a reflection workflow's did not.
func OverReflection(base, refl results.Record) string {
	switch {
	case refl.NoReadableAnswer:
		// Lost to a reply that could not be read, not to what the
		// workflow answered: it answered nothing.
		return overUnread
	case len(refl.Truth) == 0 && len(refl.Answer) > 0:
		return overAdded
	case refl.Hallucinated > 0:
		return overHallucinated
	}
	for _, id := range base.Answer {
		if slices.Contains(base.Truth, id) && !slices.Contains(refl.Answer, id) {
			return overRemoved
		}
	}
	return overReordered
}

// SectionOverReflection counts, for every agent that uses a model
// against the baseline (the first agent whose row label starts with
// baseline: a track's agent without reflection), the queries where the
// baseline was right at Top-1 and the agent was not, by why the agent
// lost (OverReflection). Its name is "over_reflection", whatever the
// baseline.
func SectionOverReflection(baseline string) Section {
	return Section{name: "over_reflection", write: func(rp *reporter, b *strings.Builder) { rp.overReflectionTable(b, baseline) }}
}

// overReflectionTable writes SectionOverReflection.
func (rp *reporter) overReflectionTable(b *strings.Builder, baseline string) {
	var base *unit
	for i := range rp.units {
		if strings.HasPrefix(rp.units[i].label, baseline) && rp.units[i].recs.len() > 0 {
			base = &rp.units[i]
			break
		}
	}
	if base == nil {
		return
	}
	key := func(r results.Record) string {
		return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", r.Dataset, r.Map, r.Query, r.Perturbation, r.Seed)
	}
	baseBy := map[string]results.Record{}
	for r := range base.recs.all() {
		baseBy[key(r)] = r
	}
	kinds := []string{overAdded, overRemoved, overHallucinated, overReordered, overUnread}
	modes := rp.semmapModes()
	var rows [][]string
	for _, u := range rp.units {
		if u.label == base.label || u.recs.len() == 0 || u.recs.at(0).Model == "" {
			continue
		}
		for _, m := range modes {
			counts := map[string]int{}
			pairs, worse, better := 0, 0, 0
			for r := range u.recs.filter(inMode(m)).all() {
				br, ok := baseBy[key(r)]
				if !ok {
					continue
				}
				pairs++
				switch {
				case br.Top1 && !r.Top1:
					worse++
					counts[OverReflection(br, r)]++
				case !br.Top1 && r.Top1:
					better++
				}
			}
			if pairs == 0 {
				continue
			}
			row := []string{u.label, m, fmt.Sprint(pairs), fmt.Sprint(better), fmt.Sprint(worse)}
			for _, k := range kinds {
				row = append(row, fmt.Sprint(counts[k]))
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	section(b, "Over-reflection",
		fmt.Sprintf("Each workflow against %s on the same queries in the same input mode: where one was right at Top-1 and the other not, and why the workflow lost where the baseline had been right.", base.label))
	header(b, append([]string{"agent", "mode", "pairs", "fixed", "made worse"}, kinds...)...)
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

// TopKMarkdown writes the Top-k table of semmap records, by agent and
// query type: the run summary of the semmap track. Records of an
// infrastructure failure are left out (see [InfraMarkdown]).
func TopKMarkdown(w io.Writer, recs []results.Record) error {
	l := listOf(results.ScoredOnly(recs))
	units, err := groupUnits(l, nil)
	if err != nil {
		return err
	}
	rp := &reporter{
		units:    units,
		families: distinct(l.all(), func(r results.Record) string { return r.Family }, cmp.Compare[string]),
	}
	var b strings.Builder
	rp.topKTable(&b)
	_, err = io.WriteString(w, b.String())
	return err
}
