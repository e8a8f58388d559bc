// Package memo keeps the latest results of a function that gives the same
// value for the same key, for callers that ask it again and again: the
// simulated model reads the same instruction, or the same trial one turn
// longer, at every call of an episode, and keeps nothing between calls.
//
// A Table holds at most its size of entries and drops the oldest kept
// first. It is safe for concurrent use. A value is handed out as it was
// kept, so a caller that will change it keeps and takes copies.
package memo

import "sync"

// Table maps keys to the values kept for them.
type Table[K comparable, V any] struct {
	mu    sync.Mutex
	size  int
	vals  map[K]V
	order []K // keys in the order they were kept, a ring once full
	next  int // the slot of order the next key takes, once full
}

// New returns an empty table of at most size entries (at least one).
func New[K comparable, V any](size int) *Table[K, V] {
	return &Table[K, V]{size: max(size, 1)}
}

// Get returns the value kept for k.
func (t *Table[K, V]) Get(k K) (V, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.vals[k]
	return v, ok
}

// Put keeps v for k, dropping the oldest entry when the table is full. A
// key kept already keeps its value and its place.
func (t *Table[K, V]) Put(k K, v V) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.vals == nil {
		t.vals = make(map[K]V, t.size)
	}
	if _, ok := t.vals[k]; ok {
		return
	}
	if len(t.order) < t.size {
		t.order = append(t.order, k)
	} else {
		delete(t.vals, t.order[t.next])
		t.order[t.next] = k
		t.next = (t.next + 1) % t.size
	}
	t.vals[k] = v
}

// Len returns how many entries the table holds.
func (t *Table[K, V]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.vals)
}

// Reset empties the table.
func (t *Table[K, V]) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.vals, t.order, t.next = nil, nil, 0
}
