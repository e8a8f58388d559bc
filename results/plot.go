package results

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// A Plot is a figure a track's records get next to the report: a PNG
// file, and a paragraph of the report that links it. A track lists its
// plots in [TrackReport.Plots]; a plot sees the scored records of the
// tracks that list it, and draws nothing when it has nothing to show.
type Plot struct {
	// File is the PNG's file name; two plots of one file name are one.
	File string
	// Title is the link's text.
	Title string
	// Section is the name of the report section the link goes under
	// ([Section.Name]); when the report has no such section, the link
	// goes to a section "Plots" of its own.
	Section string
	draw    func(w io.Writer, recs []Record, opts ReportOptions) (caption string, ok bool, err error)
}

// NewPlot makes a plot of a track's own. draw gets the scored records of
// the tracks that list the plot; it writes the PNG to w and returns the
// sentence the report says of it (what it shows, its n), or ok false,
// having written nothing, when the records give it nothing to show.
func NewPlot(file, title, section string, draw func(w io.Writer, recs []Record, opts ReportOptions) (caption string, ok bool, err error)) Plot {
	return Plot{File: file, Title: title, Section: section, draw: draw}
}

// Draw writes the plot of recs (their scored records) to w as a PNG and
// returns what the report says of it; ok is false, and nothing is
// written, when there is nothing to show. The same records in any order
// give the same bytes.
func (p Plot) Draw(w io.Writer, recs []Record, opts ReportOptions) (caption string, ok bool, err error) {
	var buf bytes.Buffer
	caption, ok, err = p.draw(&buf, ScoredOnly(recs), opts)
	if err != nil || !ok {
		return "", false, err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return "", false, fmt.Errorf("%s: %w", p.File, err)
	}
	return caption, true, nil
}

// PlotLink is a plot that was written, as the report links it.
type PlotLink struct {
	// Title is the link's text, Caption the sentence before it.
	Title, Caption string
	// Section is the report section the link goes under ([Plot.Section]).
	Section string
	// Link is where the report's reader finds the PNG, relative to the
	// report.
	Link string
}

// DrawPlots draws the plots of the tracks present in recs (opts.Tracks),
// each once, in the order the tracks (by name) list them, each over the
// records of the tracks that list it. save gets each plot that has
// something to show, with its PNG, and returns the link the report
// should give it. The links are what [ReportOptions.Plots] takes.
func DrawPlots(recs []Record, opts ReportOptions, save func(file string, png []byte) (link string, err error)) ([]PlotLink, error) {
	recs = ScoredOnly(recs)
	type placed struct {
		Plot
		tracks []string
	}
	var plots []placed
	for _, track := range distinct(recs, func(r Record) string { return r.Track }, cmp.Compare[string]) {
		for _, p := range opts.Tracks[track].Plots {
			i := slices.IndexFunc(plots, func(q placed) bool { return q.File == p.File })
			if i < 0 {
				plots = append(plots, placed{Plot: p})
				i = len(plots) - 1
			}
			plots[i].tracks = append(plots[i].tracks, track)
		}
	}
	var links []PlotLink
	for _, p := range plots {
		var buf bytes.Buffer
		caption, ok, err := p.Draw(&buf, filter(recs, func(r Record) bool { return slices.Contains(p.tracks, r.Track) }), opts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", p.File, err)
		}
		if !ok {
			continue
		}
		link, err := save(p.File, buf.Bytes())
		if err != nil {
			return nil, err
		}
		links = append(links, PlotLink{Title: p.Title, Caption: caption, Section: p.Section, Link: link})
	}
	return links, nil
}

// plotLinks writes the links of the plots that go under section.
func plotLinks(b *strings.Builder, links []PlotLink) {
	for _, l := range links {
		fmt.Fprintf(b, "%s (`%s`):\n\n![%s](%s)\n\n", l.Caption, l.Link, l.Title, l.Link)
	}
}

// The figures' common size: panels at the left, the legend in a column
// of its own at the right, where it hides no point.
const (
	figWidth  = 9 * vg.Inch
	figLegend = 2.3 * vg.Inch
)

// palette is Tableau's ten colours, chosen to tell lines apart; past
// ten series the marker shape and the dash pattern still do.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 0xff}, // blue
	color.RGBA{0xf2, 0x8e, 0x2b, 0xff}, // orange
	color.RGBA{0xe1, 0x57, 0x59, 0xff}, // red
	color.RGBA{0x59, 0xa1, 0x4f, 0xff}, // green
	color.RGBA{0xb0, 0x7a, 0xa1, 0xff}, // purple
	color.RGBA{0x76, 0xb7, 0xb2, 0xff}, // teal
	color.RGBA{0x9c, 0x75, 0x5f, 0xff}, // brown
	color.RGBA{0xc9, 0xa8, 0x00, 0xff}, // yellow, darkened to read on white
	color.RGBA{0xff, 0x7f, 0x9f, 0xff}, // pink
	color.RGBA{0x55, 0x55, 0x55, 0xff}, // grey
}

// point is one estimate with its 95% interval and the episodes it
// counts.
type point struct {
	x, y, lo, hi float64
	n            int
}

// series is one agent's points, x ascending.
type series struct {
	label string
	pts   []point
}

// errXYs gives a series' points to gonum's error bars.
type errXYs struct {
	pts   []point
	dodge float64
}

func (e errXYs) Len() int                { return len(e.pts) }
func (e errXYs) XY(i int) (x, y float64) { return e.pts[i].x + e.dodge, e.pts[i].y }
func (e errXYs) YError(i int) (lo, hi float64) {
	return e.pts[i].y - e.pts[i].lo, e.pts[i].hi - e.pts[i].y
}

// rateAt is a rate as a point at x: k/n and its 95% Wilson interval.
func rateAt(x float64, r Rate) point {
	lo, hi := Wilson(r.K, r.N, Z95)
	y := 0.0
	if r.N > 0 {
		y = float64(r.K) / float64(r.N)
	}
	return point{x: x, y: y, lo: lo, hi: hi, n: r.N}
}

// meanAt is the mean of vs as a point at x, with the normal
// approximation's 95% interval, mean ± 1.96·s/√n (s the sample standard
// deviation; no width with one value). vs are summed in sorted order, so
// the order of the records does not matter.
func meanAt(x float64, vs []float64) point {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := float64(len(s))
	var sum float64
	for _, v := range s {
		sum += v
	}
	m := sum / n
	var ss float64
	for _, v := range s {
		ss += (v - m) * (v - m)
	}
	half := 0.0
	if len(s) > 1 {
		half = Z95 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	}
	return point{x: x, y: m, lo: m - half, hi: m + half, n: len(s)}
}

// addSeries draws series i on p: its points at x+dodge with error bars,
// joined by a line when join, in the series' colour and marker. The
// legend, when not nil, gets an entry.
func addSeries(p *plot.Plot, legend *plot.Legend, i int, s series, dodge float64, join bool) error {
	c := palette[i%len(palette)]
	xys := errXYs{s.pts, dodge}
	bars, err := plotter.NewYErrorBars(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", s.label, err)
	}
	bars.Color = c
	bars.Width = vg.Points(1)
	bars.CapWidth = vg.Points(4)
	points, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", s.label, err)
	}
	points.Color = c
	points.Shape = plotutil.Shape(i)
	points.Radius = vg.Points(3)
	thumbs := []plot.Thumbnailer{points}
	if join {
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("%s: %w", s.label, err)
		}
		line.Color = c
		line.Width = vg.Points(1.2)
		line.Dashes = plotutil.Dashes(i / len(palette))
		p.Add(line)
		thumbs = append([]plot.Thumbnailer{line}, thumbs...)
	}
	p.Add(bars, points)
	if legend != nil {
		legend.Add(s.label, thumbs...)
	}
	return nil
}

// dodge spreads m series' points around each x so that their error bars
// do not hide each other: series i of m moves by (i − (m−1)/2)·width/m.
func dodge(i, m int, width float64) float64 {
	if m < 2 {
		return 0
	}
	return (float64(i) - float64(m-1)/2) * width / float64(m)
}

// rateAxis makes p's y axis a rate, 0 to 1, ticked every 0.1.
func rateAxis(p *plot.Plot, label string) {
	p.Y.Label.Text = label
	p.Y.Min, p.Y.Max = 0, 1
	var ticks plot.ConstantTicks
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'f', 1, 64)
		}
		ticks = append(ticks, t)
	}
	p.Y.Tick.Marker = ticks
}

// nLabel says how many episodes the points of one x count: "n=20", or
// "n=18–20" when the series differ.
func nLabel(ns []int) string {
	if len(ns) == 0 {
		return ""
	}
	lo, hi := slices.Min(ns), slices.Max(ns)
	if lo == hi {
		return "n=" + strconv.Itoa(lo)
	}
	return fmt.Sprintf("n=%d–%d", lo, hi)
}

// nAt lists the n of every series' point at x.
func nAt(ss []series, x float64) []int {
	var ns []int
	for _, s := range ss {
		for _, pt := range s.pts {
			if pt.x == x {
				ns = append(ns, pt.n)
			}
		}
	}
	return ns
}

// allN lists the n of every point.
func allN(ss []series) []int {
	var ns []int
	for _, s := range ss {
		for _, pt := range s.pts {
			ns = append(ns, pt.n)
		}
	}
	return ns
}

// models names the models of units for a title: " — model sim", "" when
// none uses one.
func models(units []unit) string {
	var ms []string
	for _, u := range units {
		if u.model != "" && !slices.Contains(ms, u.model) {
			ms = append(ms, u.model)
		}
	}
	slices.Sort(ms)
	switch len(ms) {
	case 0:
		return ""
	case 1:
		return " — model " + ms[0]
	}
	return " — models " + strings.Join(ms, ", ")
}

// writeFigure draws panels stacked top to bottom, their axes aligned,
// each panelHeight high, the figure width wide (figWidth when 0), with
// legend at the right, as a PNG to w.
func writeFigure(w io.Writer, panels []*plot.Plot, width, panelHeight vg.Length, legend plot.Legend) error {
	figWidth := cmp.Or(width, figWidth)
	height := panelHeight * vg.Length(len(panels))
	img := vgimg.NewWith(vgimg.UseWH(figWidth, height), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	left := draw.Crop(dc, 0, -figLegend, 0, -vg.Points(4))
	var rows [][]*plot.Plot
	for _, p := range panels {
		rows = append(rows, []*plot.Plot{p})
	}
	canvases := plot.Align(rows, draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(6)}, left)
	for i, p := range panels {
		p.Draw(canvases[i][0])
	}
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(2)
	legend.Draw(draw.Crop(dc, figWidth-figLegend+vg.Points(8), -vg.Points(4), 0, -vg.Points(28)))
	_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
	return err
}
