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

// pair is two units to compare: on one track's records, or on every track
// both ran when track is "".
type pair struct {
	a, b  unit
	track string
}

// pairs lists the (A, B) units to compare, as opts says.
func (rp *reporter) pairs(opts Options) ([]pair, error) {
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
		name := rp.trackReport(track).Baseline
		if name == "" {
			continue
		}
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
	return u.recs.any(func(r results.Record) bool { return r.Track == track })
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
		for r := range u.recs.all() {
			if rp.trackReport(r.Track).SuccessByTrial {
				k[r.Track] = max(k[r.Track], r.Trials)
			}
		}
	}
	for _, pr := range pairs {
		tracks := []string{pr.track}
		if pr.track == "" {
			tracks = distinct(pr.a.recs.all(), func(r results.Record) string { return r.Track }, cmp.Compare[string])
			tracks = slices.DeleteFunc(tracks, func(track string) bool { return !ranOn(pr.b, track) })
		}
		for _, track := range tracks {
			onTrack := func(r results.Record) bool { return r.Track == track }
			a, bs := pr.a.recs.filter(onTrack).records(), pr.b.recs.filter(onTrack).records()
			sr := "SR"
			if k[track] > 0 {
				sr = fmt.Sprintf("SR@%d", k[track])
			}
			for _, m := range []struct {
				name    string
				outcome func(results.Record) bool
			}{
				{sr, func(r results.Record) bool { return r.Success }},
				{"ADA", func(r results.Record) bool { return r.ADA }},
			} {
				p := stats.McNemar(a, bs, m.outcome)
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
