package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// DefaultGraphNoise are the rates of scene_graph_noise: about one edge in
// ten missing, one ordered pair in twenty with an imagined relation, one
// attribute in twenty misread.
var DefaultGraphNoise = scenes.GraphNoise{Drop: 0.1, Spurious: 0.05, Flip: 0.05}

// sceneGraphNoise makes the robot's scene graphs noisy, as a graph built
// by a vision-language model is. The instruction is clear and the table is
// what it is, so the label stays none: an agent that trusts a misread
// graph fails, and that is what the cell measures.
type sceneGraphNoise struct{}

func (sceneGraphNoise) Name() string { return "scene_graph_noise" }
func (sceneGraphNoise) Description() string {
	return "the robot's scene graph is noisy (" + DefaultGraphNoise.String() + "); the instruction is clear"
}
func (sceneGraphNoise) Noise() string             { return "perception" }
func (sceneGraphNoise) Applies(tasks.Family) bool { return true }
func (sceneGraphNoise) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	ep.ViewNoise = DefaultGraphNoise
	ep.ViewNoise.Seed = rng.Uint64()
	ep.Label, ep.Answer = tasks.LabelNone, ""
	return nil
}
