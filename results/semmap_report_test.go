package results

import "testing"

// OverReflection names why a reflection workflow lost a query the baseline
// had right.
func TestOverReflection(t *testing.T) {
	base := Record{Answer: []string{"obj1", "obj2"}, Truth: []string{"obj1", "obj2"}}
	for _, tc := range []struct {
		why  string
		base Record
		refl Record
		want string
	}{
		{"the truth is empty and the workflow answered objects", Record{}, Record{Answer: []string{"obj3"}}, overAdded},
		{"an id that is not in the map", base, Record{Answer: []string{"obj99", "obj1"}, Truth: base.Truth, Hallucinated: 1}, overHallucinated},
		{"a relevant object the baseline gave is gone", base, Record{Answer: []string{"obj5"}, Truth: base.Truth}, overRemoved},
		{"the same objects, another order", Record{Answer: []string{"obj1"}, Truth: []string{"obj1"}}, Record{Answer: []string{"obj4", "obj1"}, Truth: []string{"obj1"}}, overReordered},
	} {
		if got := OverReflection(tc.base, tc.refl); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.why, got, tc.want)
		}
	}
}
