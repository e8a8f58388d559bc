package reports

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// partialTable shows the two-robot case by agent: pooled, by what is out
// of robot 1's view, and by family (paper 001's Table 4 reports SR).
func (rp *reporter) partialTable(b *strings.Builder) {
	type row struct {
		label string
		recs  recList
	}
	var rows [][]string
	cases := []struct{ name, label string }{{"object", "object out of view"}, {"destination", "destination out of view"}}
	for _, u := range rp.units {
		po := u.recs.filter(func(r results.Record) bool { return r.Perturbation == partialObservability })
		if po.len() == 0 {
			continue
		}
		groups := []row{{"all", po}}
		for _, c := range cases {
			if cr := po.filter(func(r results.Record) bool { return r.OutOfView == c.name }); cr.len() > 0 {
				groups = append(groups, row{c.label, cr})
			}
		}
		for _, f := range rp.families {
			if fr := po.filter(func(r results.Record) bool { return r.Family == f }); fr.len() > 0 {
				groups = append(groups, row{f, fr})
			}
		}
		for _, g := range groups {
			s := summarize(g.recs.all())
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
	keep := func(r results.Record) bool {
		return !rp.twoRobots(r.Family) && !rp.noise(r.Perturbation) && r.Perturbation != partialObservability && r.SceneSize == 0
	}
	var cats, fams []string
	for _, u := range rp.units {
		for r := range u.recs.all() {
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
		all := recList{s: u.recs.s}
		for _, p := range cats {
			recs := rp.categorySample(u.recs.filter(func(r results.Record) bool { return keep(r) && r.Perturbation == p }), fams)
			all.idx = append(all.idx, recs.idx...)
			s := summarize(recs.all())
			ada, sr = append(ada, rateCell(s.ada)), append(sr, rateCell(s.sr))
		}
		if all.len() == 0 {
			continue
		}
		s := summarize(all.all())
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
// index, each with all its records (every repeat and seed); all of them
// when it is 0. It keeps l's order.
func (rp *reporter) categorySample(l recList, fams []string) recList {
	n := rp.categoryEpisodes
	if n <= 0 {
		return l
	}
	// The highest episode index each family gives: its k-th lowest.
	last := map[string]int{}
	for i, f := range fams {
		k := n / len(fams)
		if i < n%len(fams) {
			k++
		}
		seen := map[int]bool{}
		for r := range l.all() {
			if r.Family == f {
				seen[r.Episode] = true
			}
		}
		if k == 0 || len(seen) == 0 {
			continue
		}
		eps := slices.Sorted(maps.Keys(seen))
		last[f] = eps[min(k, len(eps))-1]
	}
	return l.filter(func(r results.Record) bool {
		e, ok := last[r.Family]
		return ok && r.Episode <= e
	})
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
		if !u.recs.any(func(r results.Record) bool { return rp.noise(r.Perturbation) }) {
			continue
		}
		ada, sr := []string{u.label, "ADA"}, []string{u.label, "SR"}
		for _, p := range cols {
			s := summarize(u.recs.filter(func(r results.Record) bool { return r.Perturbation == p && r.SceneSize == 0 }).all())
			ada, sr = append(ada, rateCell(s.ada)), append(sr, rateCell(s.sr))
		}
		writeRow(b, ada)
		writeRow(b, sr)
	}
	b.WriteString("\n")
}
