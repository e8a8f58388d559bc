package scenes

import (
	"fmt"
	"testing"
)

// BenchmarkRelationCodes derives the relations between every pair of a
// crowded table's objects: 48 on an 8 × 6 grid over the whole table, a
// quarter of them bowls (2,256 ordered pairs), as the simulated model's
// perceive reply and the perception errors' count each do once a look.
//
//	go test -run '^$' -bench RelationCodes -count 5 ./scenes/
func BenchmarkRelationCodes(b *testing.B) {
	const cols, rows = 8, 6
	var objs []Object
	for i := range cols * rows {
		x := TableMinX + (float64(i%cols)+0.5)*(TableMaxX-TableMinX)/cols
		y := TableMinY + (float64(i/cols)+0.5)*(TableMaxY-TableMinY)/rows
		color := Colors[i%len(Colors)]
		o := NewBlock(fmt.Sprintf("%s block %d", color, i), color, x, y)
		if i%4 == 3 {
			o = NewBowl(fmt.Sprintf("%s bowl %d", color, i), color, x, y)
		}
		objs = append(objs, o)
	}
	count := 0
	for b.Loop() {
		_, count = RelationCodes(objs)
	}
	b.ReportMetric(float64(count), "relations")
}
