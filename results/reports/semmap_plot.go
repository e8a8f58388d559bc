package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// MapSizePlotFile is the file name the command gives the plot of
// [MapSizePlot], next to the report.
const MapSizePlotFile = "semmap_topany_by_map_size.png"

// mapSizeData collects the map sizes of the semmap records in units,
// ascending, and their series: one per unit that has semmap records, in
// the report's row order, each point Top-Any with its Wilson interval.
// Query types and input modes are pooled, as in the report's map-size
// table: one line per agent keeps nine agents legible, where a line per
// mode would double them while the modes move Top-Any by a few points.
// Both are empty when the records span fewer than two map sizes, as the
// table is then left out too.
func mapSizeData(all []unit) (sizes []int, ss []series) {
	// The records on maps alone: those that count a map's objects.
	var units []unit
	for _, u := range all {
		if u.recs = u.recs.filter(func(r results.Record) bool { return r.MapObjects > 0 }); u.recs.len() > 0 {
			units = append(units, u)
		}
	}
	for _, u := range units {
		for r := range u.recs.all() {
			if !slices.Contains(sizes, r.MapObjects) {
				sizes = append(sizes, r.MapObjects)
			}
		}
	}
	if len(sizes) < 2 {
		return nil, nil
	}
	slices.Sort(sizes)
	for _, u := range units {
		s := series{label: u.label}
		for _, n := range sizes {
			var ta stats.Rate
			for r := range u.recs.all() {
				if r.MapObjects == n {
					ta.N++
					ta.K += b2i(r.TopAny)
				}
			}
			if ta.N > 0 {
				s.pts = append(s.pts, rateAt(float64(n), ta))
			}
		}
		ss = append(ss, s)
	}
	return sizes, ss
}

// MapSizePlot draws, as a PNG, Top-Any (y, 0 to 1) against the number of
// objects in the map (x) from the semmap records of recs: one line with
// points per agent (per agent and model when an agent ran with several,
// as the report labels its rows), each point with its 95% Wilson
// interval and, under each map size, the queries a point counts; query
// types and input modes pooled, agents in the report's order
// (opts.Agents), the model in the title. It writes nothing and returns
// false when the records hold semmap results for fewer than two map
// sizes. The same records give the same bytes. It is [PlotMapSize]'s
// drawing.
func MapSizePlot(w io.Writer, recs []results.Record, opts Options) (bool, error) {
	_, ok, err := PlotMapSize.Draw(w, recs, opts)
	return ok, err
}

func mapSizePlot(w io.Writer, recs recList, opts Options) (string, bool, error) {
	units, err := groupUnits(recs, opts.Agents)
	if err != nil {
		return "", false, err
	}
	sizes, ss := mapSizeData(units)
	if len(ss) == 0 {
		return "", false, nil
	}
	p := plot.New()
	p.Title.Text = "Top-Any against map size" + models(units) + " (95% Wilson intervals)"
	p.X.Label.Text = "objects in the map (n: queries per point)"
	rateAxis(p, "Top-Any (query types and input modes pooled)")
	// A tick at each map size says which maps the points stand for, and
	// how many queries each point counts.
	var xticks plot.ConstantTicks
	gap := math.Inf(1)
	for i, n := range sizes {
		xticks = append(xticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n) + "\n" + nLabel(nAt(ss, float64(n)))})
		if i > 0 {
			gap = min(gap, float64(n-sizes[i-1]))
		}
	}
	p.X.Tick.Marker = xticks
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	for i, s := range ss {
		// The points are moved apart a little, so that the intervals
		// of agents level with each other stay in sight; the labels
		// keep the true sizes.
		if err := addSeries(p, &legend, i, s, dodge(i, len(ss), 0.35*gap), true); err != nil {
			return "", false, fmt.Errorf("map-size plot: %w", err)
		}
	}
	if err := writeFigure(w, opts.SVG, []*plot.Plot{p}, 0, 4.5*vg.Inch, legend); err != nil {
		return "", false, fmt.Errorf("map-size plot: %w", err)
	}
	return fmt.Sprintf("Top-Any against map size, query types and input modes pooled: a line per agent (%d agents) with 95%% Wilson intervals, %s queries per point (under each map size)",
		len(ss), strings.TrimPrefix(nLabel(allN(ss)), "n=")), true, nil
}
