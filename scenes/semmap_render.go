package scenes

import (
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
