package reports

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// reflectionTable is the household track's reflection section: how much
// each agent reflected, with which tools, at what cost and to what effect.
func (rp *reporter) reflectionTable(b *strings.Builder) {
	type row struct {
		label string
		s     stats.ReflectionStats
	}
	var rows []row
	toolSet := map[string]bool{}
	for _, u := range rp.units {
		recs := u.recs.filter(func(r results.Record) bool { return r.Trials > 0 })
		if recs.len() == 0 {
			continue
		}
		s := stats.SummarizeReflections(recs.records())
		for name := range s.Tools {
			toolSet[name] = true
		}
		rows = append(rows, row{u.label, s})
	}
	if len(rows) == 0 {
		return
	}
	tools := slices.Sorted(maps.Keys(toolSet))
	section(b, "Reflection",
		fmt.Sprintf("Games with trials (household). Per game: reflections, redundant reflections (docs/metrics.md), calls of each reflection tool (a free-text reflection, as Reflexion's, is one call of `%s`) and reflection tokens, each a mean with a 95%% percentile bootstrap interval (%s resamples of the games, fixed seed; none where the column is constant over the games). Cost_ref: reflection tokens ÷ games corrected (failed at trial 1, solved later), with the same bootstrap, its interval left out when fewer than 95%% of the resamples correct a game; Rate_rev: games corrected ÷ games failed at trial 1, Wilson interval. Tokens per reflection: mean, range and coefficient of variation (population standard deviation ÷ mean) over all the agent's reflections.",
			results.FreeTextReflectTool, grouped(stats.BootstrapResamples)))
	fields := []string{"agent", "games", "reflections/game", "redundant/game"}
	for _, name := range tools {
		fields = append(fields, name+" calls/game")
	}
	fields = append(fields, "reflection tok/game", "Cost_ref", "Rate_rev", "tok/reflection", "tok/reflection range", "tok/reflection CV")
	header(b, fields...)
	for _, r := range rows {
		s := r.s
		cells := []string{r.label, fmt.Sprint(s.Games), meanCell(s.Reflections), meanCell(s.Redundant)}
		for _, name := range tools {
			// An agent that never called a tool called it 0 times a game.
			cells = append(cells, meanCell(cmp.Or(s.Tools[name], stats.Estimate{OK: true, Interval: true})))
		}
		rev := "—"
		if s.RateRev.N > 0 {
			rev = rateCell(s.RateRev)
		}
		mean, rng, cv := "—", "—", "—"
		if sp := s.PerReflection; sp.N > 0 {
			mean = grouped(int64(math.Round(sp.Mean)))
			rng = grouped(int64(sp.Min)) + "–" + grouped(int64(sp.Max))
			cv = fixed2(sp.CV)
		}
		cells = append(cells, tokenCell(s.Tokens), tokenCell(s.CostRef), rev, mean, rng, cv)
		writeRow(b, cells)
	}
	b.WriteString("\n")
}
