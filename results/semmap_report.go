package results

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The semmap track's sections: Top-k by query type, against map size, and
// the over-reflection analysis of paper 000.

func isSemmap(r Record) bool { return r.Track == "semmap" }

// topKTable writes Top-1, Top-2, Top-3 and Top-Any by agent and query type.
func (rp *reporter) topKTable(b *strings.Builder) {
	type row []string
	var rows []row
	for _, u := range rp.units {
		recs := filter(u.recs, isSemmap)
		if len(recs) == 0 {
			continue
		}
		// Rows: all, each query type, each difficulty, and each dataset
		// when there are several.
		type group struct {
			label string
			keep  func(Record) bool
		}
		groups := []group{{"all", func(Record) bool { return true }}}
		for _, f := range rp.families {
			groups = append(groups, group{f, func(r Record) bool { return r.Family == f }})
		}
		for _, d := range distinct(recs, func(r Record) string { return r.Difficulty }, cmp.Compare[string]) {
			if d != "" {
				groups = append(groups, group{"difficulty " + d, func(r Record) bool { return r.Difficulty == d }})
			}
		}
		if sets := distinct(recs, func(r Record) string { return r.Dataset }, cmp.Compare[string]); len(sets) > 1 {
			for _, d := range sets {
				groups = append(groups, group{"dataset " + d, func(r Record) bool { return r.Dataset == d }})
			}
		}
		for _, gr := range groups {
			g := gr.label
			rs := filter(recs, gr.keep)
			if len(rs) == 0 {
				continue
			}
			var t1, t2, t3, ta, hall, answered Rate
			for _, r := range rs {
				t1.N, t2.N, t3.N, ta.N = t1.N+1, t2.N+1, t3.N+1, ta.N+1
				t1.K += b2i(r.Top1)
				t2.K += b2i(r.Top2)
				t3.K += b2i(r.Top3)
				ta.K += b2i(r.TopAny)
				hall.K += r.Hallucinated
				hall.N += len(r.Answer)
				answered.N++
				answered.K += b2i(r.Error == "")
			}
			hal := "—"
			if hall.N > 0 {
				hal = fmt.Sprintf("%d of %d ids", hall.K, hall.N)
			}
			rows = append(rows, row{u.label, g, rateCell(t1), rateCell(t2), rateCell(t3), rateCell(ta), hal})
		}
	}
	if len(rows) == 0 {
		return
	}
	section(b, "Top-k by query type and difficulty",
		"Semantic-map queries (DESIGN.md's Top-k): both the answer and the truth empty is a hit at every k; an empty answer to a query with a truth, or a missing answer, is a miss. Hallucinated: answered ids that are not in the map.")
	header(b, "agent", "queries", "Top-1", "Top-2", "Top-3", "Top-Any", "hallucinated")
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

// mapSizeTable writes Top-1 and Top-Any against the number of objects in
// the map.
func (rp *reporter) mapSizeTable(b *strings.Builder) {
	var sizes []int
	for _, u := range rp.units {
		for _, r := range filter(u.recs, isSemmap) {
			if !slices.Contains(sizes, r.MapObjects) {
				sizes = append(sizes, r.MapObjects)
			}
		}
	}
	if len(sizes) < 2 {
		return
	}
	slices.Sort(sizes)
	section(b, "Top-k against map size", "Query types and input modes pooled; one row per map size (objects shown to the agent).")
	if rp.mapSizePlot != "" {
		fmt.Fprintf(b, "Top-Any against map size, one line per agent, is plotted in `%s`:\n\n![Top-Any against map size](%s)\n\n", rp.mapSizePlot, rp.mapSizePlot)
	}
	header(b, "agent", "objects", "Top-1", "Top-Any", "input tok/ep")
	for _, u := range rp.units {
		recs := filter(u.recs, isSemmap)
		for _, n := range sizes {
			rs := filter(recs, func(r Record) bool { return r.MapObjects == n })
			if len(rs) == 0 {
				continue
			}
			var t1, ta Rate
			tok := 0
			for _, r := range rs {
				t1.N, ta.N = t1.N+1, ta.N+1
				t1.K += b2i(r.Top1)
				ta.K += b2i(r.TopAny)
				tok += r.InputTokens
			}
			writeRow(b, []string{u.label, fmt.Sprint(n), rateCell(t1), rateCell(ta), tokens(tok, len(rs))})
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
)

// OverReflection classifies a pair where the baseline's answer scored
// Top-1 and a reflection workflow's did not.
func OverReflection(base, refl Record) string {
	switch {
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

// overReflectionTable counts, for every agent against "baseline", the
// queries where the baseline was right at Top-1 and the agent was not,
// by kind.
func (rp *reporter) overReflectionTable(b *strings.Builder) {
	var base *unit
	for i := range rp.units {
		if strings.HasPrefix(rp.units[i].label, "baseline") && len(filter(rp.units[i].recs, isSemmap)) > 0 {
			base = &rp.units[i]
			break
		}
	}
	if base == nil {
		return
	}
	key := func(r Record) string {
		return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", r.Dataset, r.Map, r.Query, r.Perturbation, r.Seed)
	}
	baseBy := map[string]Record{}
	for _, r := range base.recs {
		baseBy[key(r)] = r
	}
	kinds := []string{overAdded, overRemoved, overHallucinated, overReordered}
	var rows [][]string
	for _, u := range rp.units {
		if u.label == base.label || len(filter(u.recs, isSemmap)) == 0 || u.recs[0].Model == "" {
			continue
		}
		counts := map[string]int{}
		pairs, worse, better := 0, 0, 0
		for _, r := range u.recs {
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
		row := []string{u.label, fmt.Sprint(pairs), fmt.Sprint(better), fmt.Sprint(worse)}
		for _, k := range kinds {
			row = append(row, fmt.Sprint(counts[k]))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return
	}
	section(b, "Over-reflection",
		fmt.Sprintf("Each workflow against %s on the same queries: where one was right at Top-1 and the other not, and why the workflow lost where the baseline had been right.", base.label))
	header(b, append([]string{"agent", "pairs", "fixed", "made worse"}, kinds...)...)
	for _, r := range rows {
		writeRow(b, r)
	}
	b.WriteString("\n")
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// TopKMarkdown writes the Top-k table of semmap records, by agent and
// query type: the run summary of the semmap track.
func TopKMarkdown(w io.Writer, recs []Record) error {
	rp := &reporter{
		units:    groupUnits(recs, nil),
		families: distinct(recs, func(r Record) string { return r.Family }, cmp.Compare[string]),
	}
	var b strings.Builder
	rp.topKTable(&b)
	_, err := io.WriteString(w, b.String())
	return err
}
