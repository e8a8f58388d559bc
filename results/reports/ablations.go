package reports

import (
	"cmp"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// SectionAblations sets an agent and its variants side by side: the
// agents whose names start with group (a track's ablation group: "sgcot"
// holds sgcot, sgcot-no-edges, …), under the section title, when there
// are at least two of them. Its name is "ablations", whatever the group.
func SectionAblations(group, title string) Section {
	return Section{name: "ablations", write: func(rp *reporter, b *strings.Builder) { rp.ablationTable(b, group, title) }}
}

// ablationTable writes SectionAblations.
func (rp *reporter) ablationTable(b *strings.Builder, group, title string) {
	var abl []unit
	for _, u := range rp.units {
		if strings.HasPrefix(u.agent, group) {
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
	section(b, title, caption)
	header(b, "perturbation", "agent", "ADA", "SR", "calls/ep", "input tok/ep")
	for _, p := range append([]string{""}, rp.perturbs...) {
		for _, u := range abl {
			recs := u.recs.filter(func(r results.Record) bool {
				return (p == "" && !rp.noise(r.Perturbation)) || r.Perturbation == p
			})
			if recs.len() == 0 {
				continue
			}
			s := summarize(recs.all())
			writeRow(b, []string{cmp.Or(p, "all"), u.label, rateCell(s.ada), rateCell(s.sr), perEpisode(s.calls, s.n), tokens(s.in, s.n)})
		}
	}
	b.WriteString("\n")
}
