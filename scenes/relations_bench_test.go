package scenes

import "testing"

// BenchmarkRelationCodes derives the relations between every pair of a
// crowded table's objects (GridTable(8, 6): 48 objects, a quarter of them
// bowls; 2,256 ordered pairs), as the simulated model's perceive reply and
// the perception errors' count each do once a look.
//
//	go test -run '^$' -bench RelationCodes -count 5 ./scenes/
func BenchmarkRelationCodes(b *testing.B) {
	objs := GridTable(8, 6)
	count := 0
	for b.Loop() {
		_, count = RelationCodes(objs)
	}
	b.ReportMetric(float64(count), "relations")
}
