package textworld_test

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

// tinyHouse is a hand-made house small enough to read every text of: a
// kitchen corner and a desk.
//
//	0 cabinet 1 (closed): cup 1
//	1 countertop 1: apple 1, mug 2
//	2 desk 1: desklamp 1, book 1
//	3 fridge 1 (closed): egg 1
//	4 microwave 1 (closed)
//	5 sinkbasin 1
func tinyHouse() *scenes.House {
	return &scenes.House{
		Rooms: []string{scenes.RoomKitchen, scenes.RoomBedroom},
		Receptacles: []scenes.Receptacle{
			{Name: "cabinet 1", Kind: "cabinet", Room: scenes.RoomKitchen, Loc: 4, Openable: true},
			{Name: "countertop 1", Kind: "countertop", Room: scenes.RoomKitchen, Loc: 2},
			{Name: "desk 1", Kind: "desk", Room: scenes.RoomBedroom, Loc: 6},
			{Name: "fridge 1", Kind: "fridge", Room: scenes.RoomKitchen, Loc: 1, Openable: true},
			{Name: "microwave 1", Kind: "microwave", Room: scenes.RoomKitchen, Loc: 5, Openable: true},
			{Name: "sinkbasin 1", Kind: "sinkbasin", Room: scenes.RoomKitchen, Loc: 3},
		},
		Items: []scenes.Item{
			{Name: "cup 1", Kind: "cup", In: 0, Color: "blue"},
			{Name: "apple 1", Kind: "apple", In: 1, Color: "red"},
			{Name: "mug 2", Kind: "mug", In: 1, Color: "green", Owner: "Sam"},
			{Name: "desklamp 1", Kind: "desklamp", In: 2},
			{Name: "book 1", Kind: "book", In: 2},
			{Name: "egg 1", Kind: "egg", In: 3},
		},
		At:   scenes.Nowhere,
		Held: scenes.Nowhere,
	}
}
