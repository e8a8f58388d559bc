package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// The plots the report has built in; a track lists those its records get
// in [Track.Plots].
var (
	// PlotRates: ADA and SR by perturbation, a point per agent with its
	// 95% Wilson interval. Linked under SectionRates.
	PlotRates = Plot{File: RatesPlotFile, Title: "ADA and SR by perturbation", Section: SectionRates.name, draw: ratesPlot}
	// PlotTrials: SR@k against the trial k, a line per agent of the
	// records that played trials, with 95% Wilson intervals. Linked
	// under SectionTrials.
	PlotTrials = Plot{File: TrialsPlotFile, Title: "Success by trial", Section: SectionTrials.name, draw: trialsPlot}
	// PlotSceneSize: tokens and wall time per episode against the scene
	// size, a line per agent, means with 95% intervals. Linked under
	// SectionSceneSize.
	PlotSceneSize = Plot{File: SceneSizePlotFile, Title: "Tokens and time per episode against scene size", Section: SectionSceneSize.name, draw: sceneSizePlot}
	// PlotMapSize: Top-Any against map size ([MapSizePlot]). Linked
	// under SectionMapSize.
	PlotMapSize = Plot{File: MapSizePlotFile, Title: "Top-Any against map size", Section: SectionMapSize.name, draw: mapSizePlot}
)

// The built-in plots' file names.
const (
	RatesPlotFile     = "ada_sr_by_perturbation.png"
	TrialsPlotFile    = "success_by_trial.png"
	SceneSizePlotFile = "cost_by_scene_size.png"
)

// ratesPlot draws ADA (top) and SR (bottom) by perturbation, task
// families pooled: at each perturbation one point per agent, side by
// side, with its Wilson interval.
func ratesPlot(w io.Writer, recs recList, opts Options) (string, bool, error) {
	units, err := groupUnits(recs, opts.Agents)
	if err != nil {
		return "", false, err
	}
	if len(units) == 0 {
		return "", false, nil
	}
	order := opts.Perturbations
	if len(order) == 0 {
		order = defaultPerturbations
	}
	perturbs := distinct(recs.all(), func(r results.Record) string { return r.Perturbation }, stats.OrderBy(order))
	legend := plot.NewLegend()
	var panels []*plot.Plot
	var n []int
	for pi, m := range []struct {
		name    string
		outcome func(results.Record) bool
	}{{"ADA", func(r results.Record) bool { return r.ADA }}, {"SR", func(r results.Record) bool { return r.Success }}} {
		var ss []series
		for _, u := range units {
			s := series{label: u.label}
			for i, pert := range perturbs {
				var r stats.Rate
				for rec := range u.recs.all() {
					if rec.Perturbation == pert {
						r.N++
						r.K += b2i(m.outcome(rec))
					}
				}
				if r.N > 0 {
					s.pts = append(s.pts, rateAt(float64(i), r))
				}
			}
			ss = append(ss, s)
		}
		p := plot.New()
		p.Title.Text = m.name + " by perturbation" + models(units) + " (95% Wilson intervals)"
		rateAxis(p, m.name)
		p.X.Label.Text = "perturbation (task families pooled)"
		categories(p, perturbs, ss)
		p.Add(hgrid())
		for i, s := range ss {
			var l *plot.Legend
			if pi == 0 {
				l = &legend
			}
			if err := addSeries(p, l, i, s, dodge(i, len(ss), 0.7), false); err != nil {
				return "", false, err
			}
		}
		panels = append(panels, p)
		n = allN(ss)
	}
	// An inch or so per perturbation keeps their labels apart.
	width := max(figWidth, figLegend+vg.Inch+1.05*vg.Inch*vg.Length(len(perturbs)))
	if err := writeFigure(w, opts.SVG, panels, width, 3.6*vg.Inch, legend); err != nil {
		return "", false, err
	}
	return fmt.Sprintf("ADA (top) and SR (bottom) by perturbation, task families pooled: a point per agent (%d agents, one colour and marker each) with its 95%% Wilson interval, %s episodes per point",
		len(units), strings.TrimPrefix(nLabel(n), "n=")), true, nil
}

// trialsPlot draws SR@k against k = 1..K, K the most trials any record
// played, for the agents whose records played trials: a line per agent
// with Wilson intervals. Nothing to show without a record of two trials
// or more allowed, as one trial's SR@1 is the rates plot's SR.
func trialsPlot(w io.Writer, recs recList, opts Options) (string, bool, error) {
	recs = recs.filter(func(r results.Record) bool { return r.Trials > 0 })
	k := 0
	for r := range recs.all() {
		k = max(k, r.Trials)
	}
	if k < 2 {
		return "", false, nil
	}
	units, err := groupUnits(recs, opts.Agents)
	if err != nil {
		return "", false, err
	}
	p := plot.New()
	p.Title.Text = "Success by trial" + models(units) + " (95% Wilson intervals)"
	rateAxis(p, "SR@k: games solved by trial k")
	p.X.Label.Text = "trial k"
	var ticks plot.ConstantTicks
	for i := 1; i <= k; i++ {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = 0.6, float64(k)+0.4
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	var ns []int
	for i, u := range units {
		t := stats.SumTrials(u.recs.records(), k)
		s := series{label: fmt.Sprintf("%s (n=%d)", u.label, t.Games)}
		for j, r := range t.SRAt {
			s.pts = append(s.pts, rateAt(float64(j+1), r))
		}
		ns = append(ns, t.Games)
		if err := addSeries(p, &legend, i, s, dodge(i, len(units), 0.3), true); err != nil {
			return "", false, err
		}
	}
	if err := writeFigure(w, opts.SVG, []*plot.Plot{p}, 0, 4.5*vg.Inch, legend); err != nil {
		return "", false, err
	}
	return fmt.Sprintf("SR@k, the games solved by trial k, for k = 1 to %d: a line per agent (%d agents) with 95%% Wilson intervals, %s games per agent (in the legend)",
		k, len(units), strings.TrimPrefix(nLabel(ns), "n=")), true, nil
}

// sceneSizePlot draws, against the scene size (records with one, each
// size a step on the x axis), the tokens (input and output) and the wall
// time per episode: a line per agent, means with the normal
// approximation's 95% interval. Nothing to show with fewer than two
// sizes.
func sceneSizePlot(w io.Writer, recs recList, opts Options) (string, bool, error) {
	recs = recs.filter(func(r results.Record) bool { return r.SceneSize > 0 })
	set := map[int]bool{}
	for r := range recs.all() {
		set[r.SceneSize] = true
	}
	if len(set) < 2 {
		return "", false, nil
	}
	sizes := slices.Sorted(maps.Keys(set))
	var names []string
	for _, n := range sizes {
		names = append(names, strconv.Itoa(n))
	}
	units, err := groupUnits(recs, opts.Agents)
	if err != nil {
		return "", false, err
	}
	legend := plot.NewLegend()
	var panels []*plot.Plot
	var n []int
	for pi, m := range []struct {
		title, axis string
		value       func(results.Record) float64
	}{
		{"Tokens per episode", "input + output tokens per episode", func(r results.Record) float64 { return float64(r.InputTokens + r.OutputTokens) }},
		{"Wall time per episode", "wall ms per episode", func(r results.Record) float64 { return r.WallMS }},
	} {
		var ss []series
		for _, u := range units {
			s := series{label: u.label}
			for i, size := range sizes {
				var vs []float64
				for r := range u.recs.all() {
					if r.SceneSize == size {
						vs = append(vs, m.value(r))
					}
				}
				if len(vs) > 0 {
					s.pts = append(s.pts, meanAt(float64(i), vs))
				}
			}
			ss = append(ss, s)
		}
		p := plot.New()
		p.Title.Text = m.title + " against scene size" + models(units) + " (means, 95% normal intervals)"
		p.Y.Label.Text = m.axis
		// From 0, with room above the highest interval for its cap.
		p.Y.Min, p.Y.Max = 0, 1
		for _, s := range ss {
			for _, pt := range s.pts {
				p.Y.Max = max(p.Y.Max, 1.05*pt.hi)
			}
		}
		p.Y.Tick.Marker = plainTicks{}
		p.X.Label.Text = "objects asked for on the table (scene size)"
		categories(p, names, ss)
		p.Add(hgrid())
		for i, s := range ss {
			var l *plot.Legend
			if pi == 0 {
				l = &legend
			}
			if err := addSeries(p, l, i, s, dodge(i, len(ss), 0.3), true); err != nil {
				return "", false, err
			}
		}
		panels = append(panels, p)
		n = allN(ss)
	}
	if err := writeFigure(w, opts.SVG, panels, 0, 3.6*vg.Inch, legend); err != nil {
		return "", false, err
	}
	return fmt.Sprintf("Tokens (top) and wall time (bottom) per episode against scene size, task families and perturbations pooled: a line per agent (%d agents), each point a mean with its 95%% normal-approximation interval (mean ± 1.96·s/√n), %s episodes per point",
		len(units), strings.TrimPrefix(nLabel(n), "n=")), true, nil
}
