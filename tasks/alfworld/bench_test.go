package alfworld_test

import (
	"testing"

	"github.com/ambibench/ambibench/tasks/alfworld"
)

// BenchmarkExpertPlan is the expert's shortest plan for one game, over
// the evaluation split in turn.
func BenchmarkExpertPlan(b *testing.B) {
	var games []*alfworld.Game
	for _, s := range alfworld.EvalGames() {
		games = append(games, build(b, s, ""))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := games[i%len(games)].Expert(""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate is drawing one game with its house.
func BenchmarkGenerate(b *testing.B) {
	specs := alfworld.EvalGames()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := specs[i%len(specs)].Build(""); err != nil {
			b.Fatal(err)
		}
	}
}
