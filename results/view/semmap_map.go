package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MapObject is one object of a semantic map as a semmap episode's page
// draws it: its box seen from above, in metres.
type MapObject struct {
	ID, Class string
	// X and Y are the box's centre on the floor, W and H its extent
	// along x and y.
	X, Y, W, H float64
}

// mapView is the plan of a map drawn on a semmap episode's page, the
// answered and the true objects marked.
type mapView struct {
	ViewBox       string
	Width, Height int
	// Others is the SVG path of the objects neither answered nor true.
	Others string
	Boxes  []mapBox
}

type mapBox struct {
	X, Y, W, H string // in the view box's units, y pointing down
	LX, LY     string // the label's position
	Kind       string // "both", "answer" or "truth"
	Label      string
	Title      string
}

// planMargin is the space around the map's boxes, in metres; planScale
// the page's pixels a metre.
const (
	planMargin = 0.5
	planScale  = 60
)

// drawMap plans objs with the answer's ids and the truth's marked; nil
// when there is no object to draw.
func drawMap(objs []MapObject, answer, truth []string) *mapView {
	if len(objs) == 0 {
		return nil
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, o := range objs {
		minX, maxX = min(minX, o.X-o.W/2), max(maxX, o.X+o.W/2)
		minY, maxY = min(minY, o.Y-o.H/2), max(maxY, o.Y+o.H/2)
	}
	minX, minY = minX-planMargin, minY-planMargin
	maxX, maxY = maxX+planMargin, maxY+planMargin
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	w, h := maxX-minX, maxY-minY
	v := &mapView{ViewBox: "0 0 " + f(w) + " " + f(h), Width: int(w*planScale + 0.5), Height: int(h*planScale + 0.5)}
	// The objects neither answered nor true are one path, drawn first,
	// under the marked ones: a map of a hundred objects is on the page of
	// each of its episodes, and a box of its own each would be most of
	// the site's size.
	var others strings.Builder
	for _, o := range objs {
		inA, inT := slices.Index(answer, o.ID), slices.Index(truth, o.ID)
		if inA < 0 && inT < 0 {
			fmt.Fprintf(&others, "M%s %sh%sv%sh-%sz", f(o.X-o.W/2-minX), f(maxY-(o.Y+o.H/2)), f(o.W), f(o.H), f(o.W))
			continue
		}
		b := mapBox{
			X: f(o.X - o.W/2 - minX), Y: f(maxY - (o.Y + o.H/2)), W: f(o.W), H: f(o.H),
			LX: f(o.X - minX), LY: f(maxY - o.Y),
			Title: o.ID + " " + o.Class,
		}
		switch {
		case inA >= 0 && inT >= 0:
			b.Kind = "both"
		case inA >= 0:
			b.Kind = "answer"
		default:
			b.Kind = "truth"
			b.Label = o.ID
		}
		if inA >= 0 {
			b.Label = "#" + strconv.Itoa(inA+1) + " " + o.ID
			b.Title += ", answered at rank " + strconv.Itoa(inA+1)
		}
		if inT >= 0 {
			b.Title += ", in the truth"
		}
		v.Boxes = append(v.Boxes, b)
	}
	v.Others = others.String()
	return v
}
