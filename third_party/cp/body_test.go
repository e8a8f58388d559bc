package cp

import (
	"math"
	"testing"
)

func TestBodyMassFromShapes(t *testing.T) {
	body := NewBody(0, 0)
	circle := NewCircle(body, 5, Vector{0, 0})
	circle2 := NewCircle(body, 5, Vector{0, 0})

	mass := 10.0
	circle.SetMass(mass)
	body.AddShape(circle)

	if body.Mass() != mass {
		t.Fail()
	}

	circle2.SetMass(mass)
	body.AddShape(circle2)

	if body.Mass() != mass*2 {
		t.Fail()
	}
}

func TestBodyCoGFromShapes(t *testing.T) {
	body := NewBody(0, 0)
	circle := NewCircle(body, 5, Vector{0, 0})
	circle2 := NewCircle(body, 5, Vector{10, 0})

	mass := 10.0

	circle.SetMass(mass)
	body.AddShape(circle)

	circle2.SetMass(mass)
	body.AddShape(circle2)

	cog := body.CenterOfGravity()
	if cog.X != 5.0 || cog.Y != 0.0 {
		t.Fail()
	}

	body.RemoveShape(circle)
	cog = body.CenterOfGravity()
	if cog.X != 10.0 || cog.Y != 0.0 {
		t.Fail()
	}

}

// TestSetTransformAtZero checks the turn SetTransform takes at angle +0
// without math.Cos and math.Sin against theirs, and that -0 is not
// taken for +0.
func TestSetTransformAtZero(t *testing.T) {
	if c, s := math.Cos(0), math.Sin(0); c != 1 || math.Float64bits(s) != 0 {
		t.Fatalf("cos 0 = %v, sin 0 = %v (bits %x)", c, s, math.Float64bits(s))
	}
	for _, a := range []float64{0, math.Copysign(0, -1), 1e-300, 0.5} {
		body := NewBody(1, 1)
		body.cog = Vector{0.25, -0.5}
		p := Vector{3, 4}
		body.SetTransform(p, a)
		rot, c := Vector{math.Cos(a), math.Sin(a)}, body.cog // upstream's
		want := NewTransformTranspose(
			rot.X, -rot.Y, p.X-(c.X*rot.X-c.Y*rot.Y),
			rot.Y, rot.X, p.Y-(c.X*rot.Y+c.Y*rot.X),
		)
		bits := func(t Transform) [6]uint64 {
			return [6]uint64{math.Float64bits(t.a), math.Float64bits(t.b), math.Float64bits(t.c),
				math.Float64bits(t.d), math.Float64bits(t.tx), math.Float64bits(t.ty)}
		}
		if bits(body.transform) != bits(want) {
			t.Errorf("angle %v: transform %v, want %v", a, body.transform, want)
		}
	}
}
