package camera

import (
	"fmt"
	"testing"
)

// BenchmarkVisibility times Visibility, what a look at the table costs
// beside drawing it, on a seeded table of 6 and of 48 objects (many): the
// crowded one is where pairs of silhouettes that cannot meet add up.
func BenchmarkVisibility(b *testing.B) {
	for _, n := range []int{6, 48} {
		objs := many(n, 1)
		opt := DefaultOptions()
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Visibility(objs, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
