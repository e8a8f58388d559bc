package reports

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// sceneSizeTable is the series over scene sizes, when any record has one.
func (rp *reporter) sceneSizeTable(b *strings.Builder) {
	sizes := make(map[int]bool)
	sized := false
	for _, u := range rp.units {
		for r := range u.recs.all() {
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
			recs := u.recs.filter(func(r results.Record) bool { return r.SceneSize == size })
			if recs.len() == 0 {
				continue
			}
			s := summarize(recs.all())
			label := "default"
			if size != 0 {
				label = strconv.Itoa(size)
			}
			writeRow(b, []string{u.label, label, perEpisode(s.objects, s.withObjects), rateCell(s.ada), rateCell(s.sr), tokens(s.in, s.n), perEpisode(s.calls, s.n)})
		}
	}
	b.WriteString("\n")
}
