package scenes

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// Render modes of a semantic map for a prompt (the agentic-workflows
// paper's two inputs).
const (
	// RenderCertainty shows each object with its most probable class only.
	RenderCertainty = "certainty"
	// RenderUncertainty shows each object's class distribution.
	RenderUncertainty = "uncertainty"
)

// renderClasses caps the distribution shown per object: past a handful of
// classes the tail is noise that only lengthens the prompt.
const renderClasses = 5

// Render writes the map as text for a prompt, one object a line:
//
//	certainty:   obj3: chair, center (1.20, 0.40, 0.45), size (0.50, 0.50, 0.90)
//	uncertainty: obj3: chair 0.62, couch 0.31, unknown 0.07, center (…), size (…)
//
// In uncertainty mode classes whose probability rounds to 0.00 are left
// out (the most probable is always shown), at most five per object. An
// object without classes shows as unknown. Any mode other than
// RenderUncertainty renders as certainty, the paper's default input.
func (m *SemanticMap) Render(mode string) string {
	var b strings.Builder
	b.Grow(len(m.Instances) * 80)
	for _, in := range m.Instances {
		b.WriteString(in.ID)
		b.WriteString(": ")
		switch {
		case len(in.Classes) == 0:
			b.WriteString(ClassUnknown)
		case mode == RenderUncertainty:
			for i, c := range in.Classes {
				if i == renderClasses || (i > 0 && c.P < 0.005) {
					break
				}
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(c.Class)
				b.WriteByte(' ')
				b.WriteString(strconv.FormatFloat(c.P, 'f', 2, 64))
			}
		default:
			b.WriteString(in.Classes[0].Class)
		}
		b.WriteString(", center ")
		writeTriple(&b, in.Center)
		b.WriteString(", size ")
		writeTriple(&b, in.Size)
		b.WriteByte('\n')
	}
	return b.String()
}

func writeTriple(b *strings.Builder, v mgl64.Vec3) {
	b.WriteByte('(')
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		// Two decimals: centimetres are finer than any detector's box,
		// and a cell phone's 0.01 m thickness still shows as non-zero.
		b.WriteString(strconv.FormatFloat(x, 'f', 2, 64))
	}
	b.WriteByte(')')
}

// RenderJSON writes the map as JSON for a prompt, in the shape paper
// 000's code gives its model (src/main.py's class_uncertainty option) and
// its section 4.1 prints: the Voxeland layout, each instance under its id
// with its box ("bbox": "center", "size"), its "n_observations" and its
// "results", numbers to two decimals; instances whose most probable class
// is unknown are already out of the map. In uncertainty mode "results" is
// the class distribution, every class, most probable first, as
// probabilities (the paper's printed form; the code passes the file's
// unnormalised evidence, which reads the same once normalised); in
// certainty mode it is the most probable class alone, at 1: the class
// taken as certain, as the dataset's annotators took it (the code keeps
// that class's evidence, a number that says nothing of the others
// either). One instance a line keeps a long map readable in a log. Any
// mode other than RenderUncertainty renders as certainty, the paper's
// default input.
func (m *SemanticMap) RenderJSON(mode string) string {
	var b bytes.Buffer
	b.Grow(64 + len(m.Instances)*160)
	b.WriteString(`{"instances": {`)
	for i, in := range m.Instances {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		writeJSONString(&b, in.ID)
		b.WriteString(`: {"bbox": {"center": `)
		writeRounded(&b, in.Center[:])
		b.WriteString(`, "size": `)
		writeRounded(&b, in.Size[:])
		b.WriteString(`}, "n_observations": `)
		b.WriteString(strconv.Itoa(in.Observations))
		b.WriteString(`, "results": {`)
		for j, c := range in.Classes {
			if j == 1 && mode != RenderUncertainty {
				break
			}
			if j > 0 {
				b.WriteString(", ")
			}
			writeJSONString(&b, c.Class)
			b.WriteString(": ")
			p := c.P
			if mode != RenderUncertainty {
				p = 1
			}
			writeNumber(&b, p)
		}
		b.WriteString("}}")
	}
	b.WriteString("\n}}")
	return b.String()
}

// writeRounded writes numbers as a JSON array, each to two decimals.
func writeRounded(b *bytes.Buffer, xs []float64) {
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeNumber(b, x)
	}
	b.WriteByte(']')
}

// writeNumber writes x to two decimals, as the text rendering does:
// centimetres are finer than any detector's box, and a cell phone's
// 0.01 m thickness still shows. A number JSON cannot hold is null; a
// rounded -0 is 0.
func writeNumber(b *bytes.Buffer, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		b.WriteString("null")
		return
	}
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if s == "-0.00" {
		s = "0.00"
	}
	b.WriteString(s)
}
