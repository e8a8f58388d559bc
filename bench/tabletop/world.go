package tabletop

import (
	"github.com/ambibench/ambibench/sim/tabletop"
	"github.com/ambibench/ambibench/tasks"
)

// NewWorld builds the physics of an episode: its table, its robots and
// their views, and its execution noise, seeded from the episode so that
// the same actions meet the same slips.
func NewWorld(ep *tasks.Episode) (*tabletop.World, error) {
	return tabletop.New(ep.Objects, tabletop.Config{
		TwoRobots:   ep.TwoRobots,
		PartialView: ep.PartialView,
		PlaceNoise:  ep.Physics.PlaceNoise,
		SlipRate:    ep.Physics.SlipRate,
		NoiseSeed:   ep.Physics.Seed,
	})
}
