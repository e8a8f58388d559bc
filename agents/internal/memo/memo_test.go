package memo

import (
	"fmt"
	"sync"
	"testing"
)

func TestTable(t *testing.T) {
	tab := New[string, int](3)
	for i, k := range []string{"a", "b", "c"} {
		tab.Put(k, i)
	}
	tab.Put("a", 99) // kept already: keeps its value and its place
	tab.Put("d", 3)  // full: drops a, the oldest
	for _, tc := range []struct {
		why  string
		key  string
		want int
		ok   bool
	}{
		{"the oldest goes first when the table is full", "a", 0, false},
		{"the rest stay", "b", 1, true},
		{"the last kept is there", "d", 3, true},
		{"a key never kept", "z", 0, false},
	} {
		if got, ok := tab.Get(tc.key); ok != tc.ok || got != tc.want {
			t.Errorf("%s: Get(%q) = %d, %v; want %d, %v", tc.why, tc.key, got, ok, tc.want, tc.ok)
		}
	}
	tab.Put("e", 4) // drops b: the ring turns on past the slot a had
	if _, ok := tab.Get("b"); ok {
		t.Errorf("b is kept after two more keys were added to a full table of three")
	}
	if n := tab.Len(); n != 3 {
		t.Errorf("Len = %d after six keys in a table of three", n)
	}
	tab.Reset()
	if _, ok := tab.Get("e"); ok || tab.Len() != 0 {
		t.Errorf("Reset left %d entries", tab.Len())
	}
}

// Under the race detector, concurrent use is what the runner's workers do.
func TestTableConcurrent(t *testing.T) {
	tab := New[string, int](8)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := fmt.Sprint(w, i%16)
				if v, ok := tab.Get(k); ok && v != i%16 {
					t.Errorf("Get(%q) = %d, want %d", k, v, i%16)
				}
				tab.Put(k, i%16)
			}
		})
	}
	wg.Wait()
	if n := tab.Len(); n != 8 {
		t.Errorf("Len = %d, want the table full at 8", n)
	}
}
