package textworld_test

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/textworld"
)

// benchKitchen is a generated kitchen, the largest kind of room, with an
// apple put on countertop 1 so that a cycle of commands can carry it
// around and come back to where it started.
func benchKitchen(b *testing.B) *scenes.House {
	h, err := scenes.GenerateHouse(newRNG(1), scenes.HouseConfig{
		Rooms:   []string{scenes.RoomKitchen},
		Require: []scenes.KindCount{{Kind: "apple", Min: 1}},
	})
	if err != nil {
		b.Fatal(err)
	}
	c, _ := h.ReceptacleIndex("countertop 1")
	a, _ := h.ItemIndex("apple 1")
	h.Items[a].In = c
	return h
}

// benchCycle visits every kind of step an agent takes and ends where it
// began, so that it can repeat for ever.
var benchCycle = []string{
	"go to countertop 1",
	"take apple 1 from countertop 1",
	"go to microwave 1",
	"heat apple 1 with microwave 1",
	"go to sinkbasin 1",
	"clean apple 1 with sinkbasin 1",
	"go to countertop 1",
	"put apple 1 in/on countertop 1",
	"go to fridge 1",
	"open fridge 1",
	"close fridge 1",
	"examine fridge 1",
}

// BenchmarkStep is one command: parse, update, render the observation.
func BenchmarkStep(b *testing.B) {
	g := newGame(b, benchKitchen(b), textworld.Options{})
	for _, c := range benchCycle {
		if o := g.Step(c); o == textworld.NothingHappens {
			b.Fatalf("%q: %s", c, o)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g.Step(benchCycle[i%len(benchCycle)])
	}
}

// BenchmarkReset is the start of a game: the house back to its first
// state and the room described.
func BenchmarkReset(b *testing.B) {
	g := newGame(b, benchKitchen(b), textworld.Options{})
	b.ReportAllocs()
	for b.Loop() {
		g.Reset()
	}
}

// BenchmarkNew is making a game from a house, once per game.
func BenchmarkNew(b *testing.B) {
	h := benchKitchen(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := textworld.New(h, textworld.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdmissible is listing the valid commands, which agents may ask
// for every step.
func BenchmarkAdmissible(b *testing.B) {
	g := newGame(b, benchKitchen(b), textworld.Options{})
	g.Step("go to countertop 1")
	b.ReportAllocs()
	for b.Loop() {
		g.Admissible()
	}
}
