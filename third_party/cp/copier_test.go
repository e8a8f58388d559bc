package cp

import (
	"reflect"
	"testing"
)

// TestShapeCopierCopiesAsConstructed checks that a copy of a prototype
// made on no body is the shape the constructor makes on the copy's body,
// before and after it is placed, with or without room reserved.
func TestShapeCopierCopiesAsConstructed(t *testing.T) {
	cases := []struct {
		name string
		make func(body *Body) *Shape
	}{
		{"box", func(body *Body) *Shape { return NewBox(body, 4, 3, 0.5) }},
		{"pentagon", func(body *Body) *Shape {
			return NewPolyShapeRaw(body, 5, []Vector{{0, 0}, {2, 0}, {3, 1}, {1, 3}, {-1, 1}}, 0)
		}},
		{"segment", func(body *Body) *Shape { return NewSegment(body, Vector{1, 2}, Vector{-3, 0.5}, 0.3) }},
		{"circle", func(body *Body) *Shape { return NewCircle(body, 2, Vector{0.5, -1}) }},
	}
	for _, reserve := range []bool{false, true} {
		for _, c := range cases {
			var copier ShapeCopier
			if reserve {
				copier.Reserve(2, 2)
			}
			newProto := func() *Shape {
				proto := c.make(nil)
				proto.SetFriction(0.6)
				proto.SetElasticity(0.25)
				proto.SetFilter(NewShapeFilter(3, 1, 1))
				return proto
			}
			proto := newProto()
			for range 2 {
				body := NewBody(1, 1)
				body.SetPosition(Vector{7, -2})
				body.SetAngle(0.3)
				want := c.make(body)
				want.SetFriction(0.6)
				want.SetElasticity(0.25)
				want.SetFilter(NewShapeFilter(3, 1, 1))
				got := copier.Copy(proto, body)
				if got.Body() != body || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: copy %+v, want %+v", c.name, got.Class, want.Class)
				}
				got.Update(body.transform)
				want.Update(body.transform)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s placed: copy %+v, want %+v", c.name, got.Class, want.Class)
				}
			}
			if !reflect.DeepEqual(proto, newProto()) {
				t.Fatalf("%s: placing the copies changed the prototype: %+v", c.name, proto.Class)
			}
		}
	}
}
