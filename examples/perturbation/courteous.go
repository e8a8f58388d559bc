package perturbations

import (
	"math/rand/v2"
	"strings"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// courteous rewords a household instruction as a polite request ("could
// you put a hot apple in fridge, please?"). The game stays clear: a
// planner that reads the task through its grammar rather than its
// meaning stumbles on the new wording, one that understands it does not.
type courteous struct{}

func (courteous) Name() string        { return "courteous" }
func (courteous) Description() string { return "the instruction reworded as a polite request" }

// AppliesToGame makes it a household perturbation, for every task type.
// (A tabletop one would implement perturb.Tabletop's Applies and Apply.)
func (courteous) AppliesToGame(string) bool { return true }

func (courteous) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	task := strings.TrimSuffix(g.Instruction, ".")
	openers := []string{"could you ", "would you mind if I asked you to ", "when you have a moment, "}
	g.Instruction = openers[rng.IntN(len(openers))] + task + ", please?"
	g.Label, g.Answer = tasks.LabelNone, ""
	return nil
}

func init() { perturb.Register(courteous{}) }
