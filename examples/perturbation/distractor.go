package perturbations

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// distractor adds a block of a colour no block has; the episode stays
// clear. It leaves spatial tasks out, where a new block could lie in the
// named direction and make the phrase match twice.
type distractor struct{}

func (distractor) Name() string                { return "distractor" }
func (distractor) Description() string         { return "an extra block of a new colour" }
func (distractor) Applies(f tasks.Family) bool { return f.Name() != "spatial" }
func (distractor) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	var used []string
	for _, o := range ep.Objects {
		if o.Class == scenes.ClassBlock {
			used = append(used, o.Color())
		}
	}
	l := scenes.LayoutOf(rng, scenes.MinSpacing, ep.TwoRobots, ep.Objects)
	if _, err := l.Add(scenes.ClassBlock, scenes.PickColors(rng, 1, used)[0], scenes.Table); err != nil {
		return perturb.ErrRedraw
	}
	ep.Objects = l.Objects()
	ep.Label = tasks.LabelNone
	return nil
}

func init() { perturb.Register(distractor{}) }
