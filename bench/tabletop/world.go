package tabletop

import (
	"github.com/ambibench/ambibench/sim/physics"
	"github.com/ambibench/ambibench/tasks"
)

// NewWorld builds the physics of an episode: its table, its robots and
// their views, and its execution noise, seeded from the episode so that
// the same actions meet the same slips.
func NewWorld(ep *tasks.Episode) (*physics.World, error) {
	return physics.New(ep.Objects, physics.Config{
		TwoRobots:   ep.TwoRobots,
		PartialView: ep.PartialView,
		PlaceNoise:  ep.Physics.PlaceNoise,
		SlipRate:    ep.Physics.SlipRate,
		NoiseSeed:   ep.Physics.Seed,
	})
}
