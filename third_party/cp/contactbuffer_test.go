package cp

import "testing"

// ringLen counts the contact buffers a space keeps.
func ringLen(s *Space) int {
	head := s.contactBuffersHead
	if head == nil {
		return 0
	}
	n := 1
	for b := head.next; b != head; b = b.next {
		n++
	}
	return n
}

// A step that finds no contact reuses the empty head buffer instead of
// pushing a fresh one, while steps with contacts still get a ring long
// enough for the collision persistence (fork change: FORK.md).
func TestEmptyContactBufferIsReused(t *testing.T) {
	apart := NewSpace()
	for i := range 2 {
		b := apart.AddBody(NewBody(1, MomentForCircle(1, 0, 1, Vector{})))
		b.SetPosition(Vector{X: float64(10 * i)})
		apart.AddShape(NewCircle(b, 1, Vector{}))
	}
	for range 50 {
		apart.Step(1.0 / 60)
	}
	if n := ringLen(apart); n != 1 {
		t.Errorf("bodies that never touch: %d contact buffers after 50 steps, want 1", n)
	}

	touching := NewSpace()
	touching.SetGravity(Vector{Y: -10})
	ground := touching.AddBody(NewStaticBody())
	touching.AddShape(NewSegment(ground, Vector{X: -10}, Vector{X: 10}, 0))
	b := touching.AddBody(NewBody(1, MomentForCircle(1, 0, 1, Vector{})))
	b.SetPosition(Vector{Y: 1})
	touching.AddShape(NewCircle(b, 1, Vector{}))
	for range 50 {
		touching.Step(1.0 / 60)
	}
	if n, want := ringLen(touching), int(touching.collisionPersistence)+1; n < want {
		t.Errorf("a ball resting on the ground: %d contact buffers, want at least %d", n, want)
	}
	if y := b.Position().Y; y < 0.9 || y > 1.1 {
		t.Errorf("the ball rests at y = %.3f, want about 1: contacts were lost", y)
	}
}
