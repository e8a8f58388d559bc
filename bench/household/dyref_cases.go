package household

import (
	"fmt"

	"github.com/ambibench/ambibench/agents/household"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// CasesPerType is how many solved games of each task type DyRef's
// toolkit shows: its prompts give two examples of the game's type.
const CasesPerType = 2

// SolvedCases are the solved games dyref's toolkit shows as examples: for
// each task type, the first CasesPerType games of the training split,
// clear, solved by the expert's shortest plan and played through the text
// world so that every command carries its observation, in the order of
// the split (the types in turn). They come from the training split, so no
// evaluation game is shown to the agent; the workflows embed them
// (agents/household/dyref_cases.json) because agents may not import tasks.
func SolvedCases(grammar string) ([]household.SolvedCase, error) {
	var out []household.SolvedCase
	types := alfworld.Types()
	for _, s := range alfworld.TrainGames(CasesPerType * len(types)) {
		g, err := s.Build("none")
		if err != nil {
			return nil, fmt.Errorf("solved case %s: %w", s.ID, err)
		}
		plan, err := g.Expert(grammar)
		if err != nil {
			return nil, fmt.Errorf("solved case %s: expert: %w", s.ID, err)
		}
		w, err := textworld.New(g.House, textworld.Options{Grammar: grammar})
		if err != nil {
			return nil, fmt.Errorf("solved case %s: %w", s.ID, err)
		}
		w.Reset()
		c := household.SolvedCase{Type: g.Type, Task: g.Instruction}
		for _, cmd := range plan {
			c.Steps = append(c.Steps, household.CaseStep{Command: cmd, Observation: w.Step(cmd)})
		}
		if !g.Goal.Satisfied(w.State()) {
			return nil, fmt.Errorf("solved case %s: the expert's plan does not reach the goal", s.ID)
		}
		out = append(out, c)
	}
	return out, nil
}
