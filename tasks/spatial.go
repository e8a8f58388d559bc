package tasks

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// spatial: the block is named by its direction from a reference object at
// the middle of the table; no other block lies in that direction.
type spatial struct{}

func (spatial) Name() string { return "spatial" }
func (spatial) Description() string {
	return "the block named by its relation to a reference object"
}
func (spatial) TwoRobots() bool { return false }

// offset returns a displacement of 16-22 cm along the direction, with up to
// 5 cm sideways, so the direction is the dominant axis.
func offset(rng *rand.Rand, rel string) (dx, dy float64) {
	along := 0.16 + 0.06*rng.Float64()
	side := (rng.Float64()*2 - 1) * 0.05
	switch rel {
	case scenes.RelLeftOf:
		return -along, side
	case scenes.RelRightOf:
		return along, side
	case scenes.RelAbove:
		return side, along
	}
	return side, -along
}

func (spatial) Generate(rng *rand.Rand) (*Episode, error) {
	l := scenes.NewLayout(rng, scenes.MinSpacing, false)
	blockColors := scenes.PickColors(rng, 3, nil)
	bowlColors := scenes.PickColors(rng, 3, nil)
	mid := scenes.Places["middle"]
	refClass := scenes.ClassBowl
	if rng.IntN(3) == 0 {
		refClass = scenes.ClassBlock
	}
	var ref scenes.Object
	if refClass == scenes.ClassBowl {
		ref = l.AddAt(scenes.ClassBowl, bowlColors[0], mid.X(), mid.Y())
		bowlColors = bowlColors[1:]
	} else {
		ref = l.AddAt(scenes.ClassBlock, blockColors[0], mid.X(), mid.Y())
		blockColors = blockColors[1:]
	}
	rel := pick(rng, Directions)
	dx, dy := offset(rng, rel)
	target := l.AddAt(scenes.ClassBlock, blockColors[0], mid.X()+dx, mid.Y()+dy)
	elsewhere := func(x, y float64) bool {
		probe := scenes.NewBlock("probe", "", x, y)
		return scenes.Direction(probe, ref) != rel
	}
	for _, c := range blockColors[1:] {
		if _, err := l.AddWhere(scenes.ClassBlock, c, scenes.Table, elsewhere); err != nil {
			return nil, err
		}
	}
	var dst scenes.Object
	for i, c := range bowlColors {
		o, err := l.Add(scenes.ClassBowl, c, scenes.Table)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			dst = o
		}
	}
	return &Episode{
		Family:   "spatial",
		Template: "Pick up {pick0} and place it {place0}.",
		Moves: []Move{{
			Pick:  Ref{Phrase: SpatialPhrase(rel, ref), ID: target.ID},
			Place: Ref{Phrase: Phrase(dst), ID: dst.ID},
			Prep:  "in",
		}},
		Objects:    l.Objects(),
		Label:      LabelNone,
		Difficulty: 2,
	}, nil
}
