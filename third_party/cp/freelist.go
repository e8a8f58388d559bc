package cp

// freeList is a stack of spare objects that belongs to one space, in place
// of the sync.Pool upstream used: a sync.Pool is registered with the
// runtime, which kept every dropped space (the pool is a field of it)
// reachable until the second garbage collection after its last use, so a
// program that builds a space per episode held hundreds of them at once.
// A free list dies with its space.
type freeList[T any] struct {
	items []*T
}

// get returns a spare object, or a new zero one when there is none.
func (f *freeList[T]) get() *T {
	n := len(f.items)
	if n == 0 {
		return new(T)
	}
	x := f.items[n-1]
	f.items[n-1] = nil
	f.items = f.items[:n-1]
	return x
}

// put keeps x for a later get.
func (f *freeList[T]) put(x *T) { f.items = append(f.items, x) }
