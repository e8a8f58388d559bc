package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// rates writes ADA and SR by ambiguity type, and the tags' accuracy.
func (rp *reporter) rates(b *strings.Builder) {
	rp.rateTable(b, "Ambiguity detection (ADA) by ambiguity type",
		rp.caption("ADA", func(w Words) string { return w.ADA },
			"on a clear episode (none), the goal reached without asking; on an ambiguous one, a question to the user (under partial_observability, a message to the other robot)."),
		func(r results.Record) bool { return r.ADA })
	rp.rateTable(b, "Success rate (SR) by ambiguity type",
		rp.caption("SR", func(w Words) string { return w.SR }, "the settled scene satisfies the goal."),
		func(r results.Record) bool { return r.Success })
	rp.tagTable(b)
}

// caption defines a rate for the rate tables, in the words of the tracks
// whose records rp holds (Track.Words, pick), def where a track
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
		for r := range u.recs.all() {
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
		for r := range u.recs.all() {
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
			var r stats.Rate
			for rec := range u.recs.all() {
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

// rateTable is the agent × ambiguity-type table of one rate, task families
// pooled, with a last column for all perturbations together.
func (rp *reporter) rateTable(b *strings.Builder, title, caption string, outcome func(results.Record) bool) {
	section(b, title, "Task families pooled. "+caption+rp.noiseNote())
	types := rp.ambiguityTypes()
	fields := append(append([]string{"agent"}, types...), "all")
	header(b, fields...)
	for _, u := range rp.units {
		row := []string{u.label}
		for _, p := range append(slices.Clone(types), "") {
			var r stats.Rate
			for rec := range u.recs.all() {
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
		s := summarize(u.recs.all())
		writeRow(b, []string{
			u.label, cmp.Or(u.model, "—"), strconv.Itoa(s.n),
			perEpisode(s.calls, s.n), tokens(s.in, s.calls), tokens(s.out, s.calls),
			tokens(s.in, s.n), tokens(s.out, s.n), mean(s.p50),
			perEpisode(s.steps, s.n), mean(s.wall),
		})
	}
	b.WriteString("\n")
}
