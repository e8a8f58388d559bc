package perturb_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// mumbled is a household perturbation written outside package perturb
// with only the exported API of tasks/alfworld: the user mumbles the
// object ("put something hot in fridge, please."), and names its kind
// when asked with the underspecified tag. It implements perturb.Household
// only, so it joins the household grid and no other.
type mumbled struct{}

func (mumbled) Name() string { return "mumbled" }
func (mumbled) Description() string {
	return "the object is not named, and the user adds a please"
}

// Leave out pick-two games, whose answer would have to name two.
func (mumbled) AppliesToGame(taskType string) bool {
	return taskType != alfworld.TypePickTwoObjAndPlace
}

func (mumbled) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	if err := g.Refer(alfworld.FormVague); err != nil { // re-render: "put something hot in fridge."
		return err
	}
	please := []string{", please.", ", if you would."}[rng.IntN(2)]
	g.Instruction = strings.TrimSuffix(g.Instruction, ".") + please
	g.Label = tasks.LabelUnderspecified
	g.Answer = "Oh, I mean " + alfworld.Indefinite(g.Goal.Kind) + "."
	return nil
}

// Registered here, it is also held to every property the registry's tests
// check of a household perturbation (properties_test.go).
func init() { perturb.Register(mumbled{}) }

func Example_householdPerturbation() {
	p, _ := perturb.LookupHousehold("mumbled")
	g, err := alfworld.EvalGames()[55].BuildWith(p)
	if err != nil {
		panic(err)
	}
	fmt.Println(perturb.Tracks(p))
	fmt.Println(g.Instruction)
	fmt.Println(g.Label, "→", g.Answer)
	_, onTabletop := perturb.Lookup("mumbled")
	fmt.Println("tabletop:", onTabletop)
	// Output:
	// [household]
	// heat something and put it in countertop, if you would.
	// underspecified → Oh, I mean an egg.
	// tabletop: false
}
