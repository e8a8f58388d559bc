package perturb

import (
	"fmt"
	"math/rand/v2"

	"github.com/ambibench/ambibench/tasks"
)

// DefaultPhysicsNoise are the rates of execution_noise: a grasp slips about
// one time in seven, and a placement strays by a centimetre (standard
// deviation per axis), which a bowl's rim forgives and a stack often does
// not.
var DefaultPhysicsNoise = tasks.PhysicsNoise{PlaceNoise: 0.012, SlipRate: 0.15}

// executionNoise makes the robots' actions imperfect: grasps slip and
// placements stray, so a move can fail without the robot being told. The
// instruction is clear and the label stays none; an agent that checks the
// table after acting, and tries again, recovers.
type executionNoise struct{}

func (executionNoise) Name() string { return "execution_noise" }
func (executionNoise) Description() string {
	return fmt.Sprintf("grasps slip (rate %.3g) and placements stray (%.3g cm per axis); the instruction is clear",
		DefaultPhysicsNoise.SlipRate, DefaultPhysicsNoise.PlaceNoise*100)
}
func (executionNoise) Noise() string { return "execution" }

// OracleRate: the reference plan, played open loop, fails where a grasp
// slips or a placement strays too far; it solves about four episodes in
// five, and must solve at least three in five.
func (executionNoise) OracleRate() float64       { return 0.6 }
func (executionNoise) Applies(tasks.Family) bool { return true }
func (executionNoise) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	ep.Physics = DefaultPhysicsNoise
	ep.Physics.Seed = rng.Uint64()
	ep.Label, ep.Answer = tasks.LabelNone, ""
	return nil
}
