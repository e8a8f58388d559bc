package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The figures' common size: panels at the left, the legend in a column
// of its own at the right, where it hides no point.
const (
	figWidth  = 9 * vg.Inch
	figLegend = 2.3 * vg.Inch
)

// plotDPI is the plots' resolution.
const plotDPI = 96

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

func (e errXYs) Len() int { return len(e.pts) }

func (e errXYs) XY(i int) (x, y float64) { return e.pts[i].x + e.dodge, e.pts[i].y }

func (e errXYs) YError(i int) (lo, hi float64) {
	return e.pts[i].y - e.pts[i].lo, e.pts[i].hi - e.pts[i].y
}

// rateAt is a rate as a point at x: k/n and its 95% Wilson interval.
func rateAt(x float64, r stats.Rate) point {
	lo, hi := stats.Wilson(r.K, r.N, stats.Z95)
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
		half = stats.Z95 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
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
// legend at the right, to w: as a PNG, or as an SVG when svg is set
// (opts.SVG).
func writeFigure(w io.Writer, svg bool, panels []*plot.Plot, width, panelHeight vg.Length, legend plot.Legend) error {
	figWidth := cmp.Or(width, figWidth)
	height := panelHeight * vg.Length(len(panels))
	var canvas interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if svg {
		// The fonts go into the file: an SVG shown by an <img> sees no
		// font of its page's, and one the machine lacks would move every
		// label.
		canvas = vgsvg.NewWith(vgsvg.UseWH(figWidth, height), vgsvg.EmbedFonts(true))
	} else {
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figWidth, height), vgimg.UseDPI(plotDPI))}
	}
	dc := draw.New(canvas)
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
	_, err := canvas.WriteTo(w)
	return err
}

// categories ticks p's x axis at 0..len(names)-1, each labelled with its
// name and the n of the points there.
func categories(p *plot.Plot, names []string, ss []series) {
	var ticks plot.ConstantTicks
	for i, name := range names {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: wrapName(name) + "\n" + nLabel(nAt(ss, float64(i)))})
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
}

// wrapName breaks a long name in two at the underscore nearest its
// middle ("partial_\nobservability"), so that neighbouring tick labels
// do not run into each other.
func wrapName(name string) string {
	if len(name) <= 12 {
		return name
	}
	best := -1
	for i, c := range name {
		if c == '_' && (best < 0 || abs(2*i-len(name)) < abs(2*best-len(name))) {
			best = i
		}
	}
	if best < 0 {
		return name
	}
	return name[:best+1] + "\n" + name[best+1:]
}

func abs(v int) int { return max(v, -v) }

// plainTicks are gonum's default ticks, labelled without trailing zeros
// and whole numbers with thousands separators ("2,500", not "2500.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		switch {
		case t.Label == "":
		case t.Value == math.Trunc(t.Value) && math.Abs(t.Value) < 1e15:
			ticks[i].Label = grouped(int64(t.Value))
		default:
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}

// hgrid is a grid of horizontal lines only.
func hgrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	return g
}
