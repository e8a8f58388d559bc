package simmodel

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"unsafe"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The visual error profile of a detection call (llm.CallDetect). doc.go
// states the rates and the formula; the constants here are its numbers.
const (
	// DetectFloor is the least visible fraction of an object that the
	// model can detect at all: below it an object is never listed, by any
	// profile, sim:perfect included, which lists every object at or above
	// it. A scene meant to show an object to a robot should leave at
	// least this much of it visible.
	DetectFloor = 0.1
	// detectKnee is the visible fraction below which an object counts as
	// partly hidden: its occlusion h rises from 0 at the knee to 1 at a
	// fraction of 0.
	detectKnee = 0.5
	// detectSmall is the shorter side of a box, in pixels, below which
	// an object counts as small: s rises from 0 at this side to 1 at 0.
	detectSmall = 12.0
	// detectCrowd is the number of objects in view that doubles every
	// per-object rate: each is scaled by 1 + n/detectCrowd.
	detectCrowd = 24.0
	// maxImageSide bounds an image's side, in pixels, that the model
	// reads; an image with a side of 0 or less or above it shows nothing
	// it can place (and keeps NormBox's arithmetic far from overflow).
	maxImageSide = 1 << 20
	// phantomSide is the side, in units of llm.BoxScale, of a phantom's
	// box when no object of its type is in view to take the size of.
	phantomSide = 60
)

// closeColors are the colours of scenes.Colors that the model may take
// each one for: neighbours in hue, or in lightness for brown and gray
// (the renderer's palette puts them so). The relation is symmetric. A
// colour not listed is never confused.
var closeColors = map[string][]string{
	"blue":   {"cyan", "purple"},
	"red":    {"orange", "pink", "brown"},
	"green":  {"cyan"},
	"orange": {"red", "yellow", "brown"},
	"yellow": {"orange"},
	"purple": {"blue", "pink"},
	"pink":   {"red", "purple"},
	"cyan":   {"blue", "green"},
	"brown":  {"red", "orange", "gray"},
	"gray":   {"brown"},
}

// inView is one object of the image as the model can place it: the
// Seen entry, its box normalised, and what makes it hard to see.
type inView struct {
	s      *llm.Seen
	box    [4]int  // [ymin, xmin, ymax, xmax] in 0–llm.BoxScale
	hidden float64 // occlusion h in [0, 1]
	small  float64 // smallness s in [0, 1]
}

// detect answers a detection call: the objects the image shows (the
// context's Seen, at or above DetectFloor), each with its colour, type
// and normalised box, with the profile's visual errors, listed top to
// bottom, then left to right. Every draw is hashed from the situation
// (c.draw) and what it concerns (an object's id, or the phantom), not
// from the call's stream, so an object the model misses at one look it
// misses at the next while it stays as hidden, and the same request gets
// the same bytes at any concurrency.
func (c *call) detect() llm.Reply {
	out := []llm.ImageObject{}
	if w, h := c.cc.ImageSize[0], c.cc.ImageSize[1]; w <= 0 || h <= 0 || w > maxImageSide || h > maxImageSide {
		data, _ := json.Marshal(llm.ImageObjects{Objects: out})
		return llm.Reply{Text: string(data), FinishReason: llm.FinishStop}
	}
	objs := c.inView()
	out = make([]llm.ImageObject, 0, len(objs)+1)
	crowd := 1 + float64(len(objs))/detectCrowd
	var names objectNames
	errs := c.p.Miss > 0 || c.p.ColorSwap > 0 || c.p.Duplicate > 0
	for _, o := range objs {
		if !errs {
			out = append(out, names.object(o.s.Attributes[scenes.AttrColor], o.s.Attributes[scenes.AttrType], o.box))
			continue
		}
		h := c.draw("detect", o.s.ID)
		if unit(h, 0) < min(1, c.p.Miss*crowd*(1+8*o.hidden+8*o.small)) {
			continue
		}
		color, typ := o.s.Attributes[scenes.AttrColor], o.s.Attributes[scenes.AttrType]
		if near := closeColors[color]; len(near) > 0 && unit(h, 1) < min(1, c.p.ColorSwap*crowd*(1+2*o.hidden+2*o.small)) {
			color = near[binary.LittleEndian.Uint32(h[24:])%uint32(len(near))]
		}
		obj := names.object(color, typ, o.box)
		out = append(out, obj)
		if unit(h, 2) < min(1, c.p.Duplicate*crowd*(1+2*o.hidden)) {
			obj.Box = shifted(o.box, binary.LittleEndian.Uint32(h[28:]))
			out = append(out, obj)
		}
	}
	if ph, ok := c.phantomObject(objs, crowd); ok {
		out = append(out, ph)
	}
	sortImageObjects(out)
	data := llm.ImageObjectsJSON(out) // json.Marshal's bytes
	// The reply is made over the buffer, which nothing else holds.
	return llm.Reply{Text: unsafe.String(unsafe.SliceData(data), len(data)), FinishReason: llm.FinishStop}
}

// sortImageObjects sorts a detection reply's objects by box, then by
// name, colour and type. It sorts their indexes, keyed by box, and moves
// each object once, along the cycles of the order found: an object holds
// three strings, and a sort's swaps of them, each through the collector's
// write barrier while it marks, were a fifth of a crowded table's
// detection reply. Objects that compare equal are equal, so the order is
// the one sorting the objects gives.
func sortImageObjects(out []llm.ImageObject) {
	type key struct {
		box [4]int
		i   int
	}
	var stack [64]key // a crowded table's reply lists about 48
	keys := stack[:0]
	if len(out) > len(stack) {
		keys = make([]key, 0, len(out))
	}
	keys = keys[:len(out)]
	for i := range out {
		keys[i] = key{out[i].Box, i}
	}
	slices.SortFunc(keys, func(x, y key) int {
		for k := range x.box {
			if d := cmp.Compare(x.box[k], y.box[k]); d != 0 {
				return d
			}
		}
		a, b := &out[x.i], &out[y.i]
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Color, b.Color), strings.Compare(a.Type, b.Type))
	})
	// out[k] is to be the object now at keys[k].i; a place filled is
	// marked by its key's index set to k.
	for s := range keys {
		if keys[s].i == s {
			continue
		}
		first, k := out[s], s
		for keys[k].i != s {
			next := keys[k].i
			out[k], keys[k].i = out[next], k
			k = next
		}
		out[k], keys[k].i = first, k
	}
}

// inView lists the Seen objects the model can place in an image of a
// readable size (detect checks it): those with a box that keeps some
// area once clipped to the image and a visible fraction at or above
// DetectFloor (a fraction that is not a number counts as 0). Their order
// is the context's; the reply sorts what it lists.
func (c *call) inView() []inView {
	w, h := c.cc.ImageSize[0], c.cc.ImageSize[1]
	out := make([]inView, 0, len(c.cc.Seen))
	for i := range c.cc.Seen {
		s := &c.cc.Seen[i]
		f := s.Fraction
		if !(f >= DetectFloor) { // NaN too
			continue
		}
		f = min(f, 1)
		x0, x1 := clamp(min(s.Box[0], s.Box[2]), 0, w), clamp(max(s.Box[0], s.Box[2]), 0, w)
		y0, y1 := clamp(min(s.Box[1], s.Box[3]), 0, h), clamp(max(s.Box[1], s.Box[3]), 0, h)
		if x1 <= x0 || y1 <= y0 {
			continue
		}
		side := float64(min(x1-x0, y1-y0))
		out = append(out, inView{
			s:      s,
			box:    llm.NormBox([4]int{x0, y0, x1, y1}, w, h),
			hidden: max(0, (detectKnee-f)/detectKnee),
			small:  max(0, (detectSmall-side)/detectSmall),
		})
	}
	return out
}

// phantomObject draws whether the model reports an object that is not
// there, at rate Phantom·crowd, and what: a type of those in view (a
// block when none is), a colour no object of that type in view has
// (any, when all have), the mean size of the objects of that type in
// view, and a place anywhere in the image.
func (c *call) phantomObject(objs []inView, crowd float64) (llm.ImageObject, bool) {
	if c.p.Phantom <= 0 {
		return llm.ImageObject{}, false
	}
	h := c.draw("detect-phantom")
	if unit(h, 0) >= min(1, c.p.Phantom*crowd) {
		return llm.ImageObject{}, false
	}
	var types []string
	for _, o := range objs {
		if t := o.s.Attributes[scenes.AttrType]; t != "" && !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	typ := scenes.ClassBlock
	if len(types) > 0 {
		typ = types[binary.LittleEndian.Uint64(h[8:])%uint64(len(types))]
	}
	var colors []string
	hgt, wid, k := 0, 0, 0
	for _, col := range scenes.Colors {
		taken := slices.ContainsFunc(objs, func(o inView) bool {
			return o.s.Attributes[scenes.AttrType] == typ && o.s.Attributes[scenes.AttrColor] == col
		})
		if !taken {
			colors = append(colors, col)
		}
	}
	for _, o := range objs {
		if o.s.Attributes[scenes.AttrType] == typ {
			hgt, wid, k = hgt+o.box[2]-o.box[0], wid+o.box[3]-o.box[1], k+1
		}
	}
	if len(colors) == 0 {
		colors = scenes.Colors
	}
	col := colors[binary.LittleEndian.Uint32(h[16:])%uint32(len(colors))]
	if k > 0 {
		hgt, wid = max(1, hgt/k), max(1, wid/k)
	} else {
		hgt, wid = phantomSide, phantomSide
	}
	y := int(unit(h, 3) * float64(llm.BoxScale-hgt+1))
	x := int(float64(binary.LittleEndian.Uint32(h[20:])) / (1 << 32) * float64(llm.BoxScale-wid+1))
	return imageObject(col, typ, [4]int{y, x, y + hgt, x + wid}), true
}

// imageObject is a detection's entry: its name is its colour and type, as
// "red block", or whichever of them it has ("object" with neither).
func imageObject(color, typ string, box [4]int) llm.ImageObject {
	name := strings.TrimSpace(color + " " + typ)
	if name == "" {
		name = "object"
	}
	return llm.ImageObject{Name: name, Color: color, Type: typ, Box: box}
}

// objectNames are the names imageObject gave in one reply, by colour
// and type: a crowded table's reply lists dozens of objects of a few
// kinds, and each name was a string made of its own. A reply of more kinds
// than it holds makes the others' names as imageObject does.
type objectNames struct {
	n     int
	kinds [16]struct{ color, typ, name string }
}

// object is imageObject(color, typ, box), its name made once a kind.
func (ns *objectNames) object(color, typ string, box [4]int) llm.ImageObject {
	for _, k := range ns.kinds[:ns.n] {
		if k.color == color && k.typ == typ {
			return llm.ImageObject{Name: k.name, Color: color, Type: typ, Box: box}
		}
	}
	o := imageObject(color, typ, box)
	if ns.n < len(ns.kinds) {
		ns.kinds[ns.n].color, ns.kinds[ns.n].typ, ns.kinds[ns.n].name = color, typ, o.Name
		ns.n++
	}
	return o
}

// shifted is a duplicate's box: the box moved by a quarter to a half of
// its size along each axis, each way as the bits of r say, and kept
// inside the image by moving it back, its size kept.
func shifted(box [4]int, r uint32) [4]int {
	hgt, wid := box[2]-box[0], box[3]-box[1]
	dy := max(1, hgt*(25+int(r&0xff)%26)/100)
	dx := max(1, wid*(25+int(r>>8&0xff)%26)/100)
	if r&(1<<16) != 0 {
		dy = -dy
	}
	if r&(1<<17) != 0 {
		dx = -dx
	}
	y := clamp(box[0]+dy, 0, llm.BoxScale-hgt)
	x := clamp(box[1]+dx, 0, llm.BoxScale-wid)
	return [4]int{y, x, y + hgt, x + wid}
}

// unit reads the i-th 64-bit word of a draw's hash as a number in [0, 1).
func unit(h [32]byte, i int) float64 {
	return float64(binary.LittleEndian.Uint64(h[8*i:])>>11) / (1 << 53)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// seenIDs are the ids of a context's Seen, for the situation of a call
// that shows an image and nothing else of the table.
func seenIDs(ss []llm.Seen) []string {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	return ids
}
