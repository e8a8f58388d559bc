package results

import (
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// MapSizePlotFile is the file name the command gives the plot of
// [MapSizePlot], next to the report.
const MapSizePlotFile = "semmap_topany_by_map_size.png"

// The plot's size. The legend gets a column of its own at the right:
// inside the axes it would hide the lines near Top-Any 1.0, where the
// reference agents and the better workflows sit.
const (
	plotWidth   = 8 * vg.Inch
	plotHeight  = 4.5 * vg.Inch
	legendWidth = 2.1 * vg.Inch
	plotDPI     = 96
)

// mapSizeSeries is one agent's Top-Any at each map size, sizes ascending.
type mapSizeSeries struct {
	label string
	xys   plotter.XYs
}

// mapSizeData collects the map sizes of the semmap records in units,
// ascending, and their series: one per unit that has semmap records, in
// the report's row order. Query types and input modes are pooled, as in
// the report's map-size table: one line per agent keeps nine agents
// legible, where a line per mode would double them while the modes move
// Top-Any by a few points. Both are empty when the records span fewer
// than two map sizes, as the table is then left out too.
func mapSizeData(all []unit) (sizes []int, series []mapSizeSeries) {
	// The records on maps alone: those that count a map's objects.
	var units []unit
	for _, u := range all {
		if u.recs = filter(u.recs, func(r Record) bool { return r.MapObjects > 0 }); len(u.recs) > 0 {
			units = append(units, u)
		}
	}
	for _, u := range units {
		for _, r := range u.recs {
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
		recs := u.recs
		if len(recs) == 0 {
			continue
		}
		s := mapSizeSeries{label: u.label}
		for _, n := range sizes {
			var ta Rate
			for _, r := range recs {
				if r.MapObjects == n {
					ta.N++
					ta.K += b2i(r.TopAny)
				}
			}
			if ta.N > 0 {
				s.xys = append(s.xys, plotter.XY{X: float64(n), Y: float64(ta.K) / float64(ta.N)})
			}
		}
		series = append(series, s)
	}
	return sizes, series
}

// MapSizePlot draws, as a PNG, Top-Any (y, 0 to 1) against the number of
// objects in the map (x) from the semmap records of recs: one line with
// points per agent (per agent and model when an agent ran with several,
// as the report labels its rows), query types and input modes pooled,
// agents in the report's order (opts.Agents). It writes nothing and
// returns false when the records hold semmap results for fewer than two
// map sizes. The same records give the same bytes.
func MapSizePlot(w io.Writer, recs []Record, opts ReportOptions) (bool, error) {
	sizes, series := mapSizeData(groupUnits(ScoredOnly(recs), opts.Agents))
	if len(series) == 0 {
		return false, nil
	}
	p := plot.New()
	p.Title.Text = "Top-Any against map size"
	p.X.Label.Text = "objects in the map"
	p.Y.Label.Text = "Top-Any (query types and input modes pooled)"
	p.Y.Min, p.Y.Max = 0, 1
	var yticks plot.ConstantTicks
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'f', 1, 64)
		}
		yticks = append(yticks, t)
	}
	p.Y.Tick.Marker = yticks
	// A tick at each map size says which maps the points stand for.
	var xticks plot.ConstantTicks
	for _, n := range sizes {
		xticks = append(xticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
	}
	p.X.Tick.Marker = xticks
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	for i, s := range series {
		line, points, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return false, fmt.Errorf("map-size plot, %s: %w", s.label, err)
		}
		c := plotutil.DarkColors[i%len(plotutil.DarkColors)]
		line.Color = c
		// Past the palette, the dash pattern keeps two lines of one
		// colour apart.
		line.Dashes = plotutil.Dashes(i / len(plotutil.DarkColors))
		points.Color = c
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(3)
		p.Add(line, points)
		legend.Add(s.label, line, points)
	}

	img := vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(dc, plotWidth-legendWidth+vg.Points(8), -vg.Points(4), 0, -vg.Points(28)))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return false, fmt.Errorf("map-size plot: %w", err)
	}
	return true, nil
}
