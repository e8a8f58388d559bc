package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/tasks"
)

// none leaves the episode clear.
type none struct{}

func (none) Name() string                                { return "none" }
func (none) Description() string                         { return "the clear episode, unchanged" }
func (none) Applies(tasks.Family) bool                   { return true }
func (none) Apply(_ *rand.Rand, ep *tasks.Episode) error { ep.Label = tasks.LabelNone; return nil }
