package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// none leaves the episode clear.
type none struct{}

func (none) Name() string                                { return "none" }
func (none) Description() string                         { return "the clear episode, unchanged" }
func (none) Applies(tasks.Family) bool                   { return true }
func (none) Apply(_ *rand.Rand, ep *tasks.Episode) error { ep.Label = tasks.LabelNone; return nil }

// On the household track none leaves the generated game as it is (its
// label is none already).
func (none) AppliesToGame(string) bool                      { return true }
func (none) HouseholdDescription() string                   { return "the generated game, unchanged" }
func (none) ApplyGame(_ *rand.Rand, _ *alfworld.Game) error { return nil }
