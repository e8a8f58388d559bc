package household

import (
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/dyref"
)

// dyref-ambiguity is DyRef with this project's fourth reflection tool,
// ambiguity (whether the instruction left something open, and what to
// ask), among those its router may choose. The paper's toolkit has three;
// the household's perturbations make some failures ones of the
// instruction rather than of the plan, which the tool is for, so the
// variant sits beside dyref to show what it adds. Its router is trained
// over the sixteen subsets (train-router --ambiguity).
func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackHousehold}, "dyref-ambiguity", "LLM workflow (household): DyRef with this project's ambiguity tool beside the paper's three; its own router picks among all four",
		func(cfg agents.Config) (agents.Agent, error) {
			return newRouted(cfg, "dyref-ambiguity", len(dyref.AllTools), dyref.DefaultAmbiguity)
		})
	agents.SetUsesRouter("dyref-ambiguity")
}
