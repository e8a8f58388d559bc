package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
)

// The reference agents on the household track. Each plays one trial and
// returns when the world ends it: the goal holds, the step limit is
// reached, or a question was wrongly tagged. None of them reflects, so
// none calls NewTrial.

// referenceCalls bounds the tool calls of one household trial. The step
// limit (50) ends a trial that acts; listing the admissible commands and
// asking cost no step, so an agent that only did those would not stop.
const referenceCalls = 400

// householdCall runs one act or ask and returns its text: the observation
// or the answer, or the refusal for a call the Env refused.
func householdCall(ctx context.Context, env agents.Env, tool string, args any) (text string, ended bool, err error) {
	r, err := agents.Call(ctx, env, tool, args)
	if err != nil {
		return "", true, err
	}
	text = r.Text
	if text == "" && r.Error != "" {
		text = "error: " + r.Error
	}
	return text, r.Ended, nil
}

// runHousehold follows the reference plan: the question the ambiguity
// calls for, then the expert's commands for the goal the user means.
func (oracle) runHousehold(ctx context.Context, env agents.Env) error {
	ts, ok := env.(agents.TruthSource)
	if !ok {
		return fmt.Errorf("oracle: the harness gave no ground truth")
	}
	for i, s := range ts.Truth().Plan {
		var args any
		switch s.Action {
		case agents.ToolAsk:
			args = agents.AskArgs{Tag: s.Tag, Question: "Please clarify the task."}
		case agents.ToolAct:
			args = agents.ActArgs{Command: s.Command}
		default:
			return fmt.Errorf("oracle: household plan step %d: unknown action %q", i, s.Action)
		}
		text, ended, err := householdCall(ctx, env, s.Action, args)
		if err != nil || ended {
			return err
		}
		if strings.HasPrefix(text, "error: ") {
			return fmt.Errorf("oracle: household plan step %d (%s %s%s) refused: %s", i, s.Action, s.Tag, s.Command, text)
		}
	}
	return fmt.Errorf("oracle: the plan of %d steps is done and the trial has not ended", len(ts.Truth().Plan))
}

// runHousehold plays the household planner over the text the tools
// return: the same planner the simulated model follows, kept up to date
// turn by turn (housework.Planner) rather than replaying the trial at
// every decision.
func (rules) runHousehold(ctx context.Context, env agents.Env) error {
	s := housework.State{Instruction: env.Instruction()}
	if o, ok := env.(agents.Opening); ok {
		s.Opening = o.Opening()
	}
	pl := housework.NewPlanner(s)
	for turns := 0; turns < referenceCalls; turns++ {
		d := pl.Decide()
		var text string
		var ended bool
		var err error
		switch d.Kind {
		case housework.Act:
			text, ended, err = householdCall(ctx, env, agents.ToolAct, agents.ActArgs{Command: d.Command})
			pl.Add(housework.Turn{Command: d.Command, Observation: text})
		case housework.Ask:
			text, ended, err = householdCall(ctx, env, agents.ToolAsk, agents.AskArgs{Tag: d.Tag, Question: d.Question})
			pl.Add(housework.Turn{Tag: d.Tag, Question: d.Question, Answer: text})
		default:
			return fmt.Errorf("rules: stuck after %d turns: %s", turns, d.Why)
		}
		if err != nil || ended {
			return err
		}
	}
	return fmt.Errorf("rules: the trial did not end after %d calls", referenceCalls)
}

// runHousehold sends random admissible commands until the trial ends.
func (a *random) runHousehold(ctx context.Context, env agents.Env) error {
	for range referenceCalls {
		r, err := agents.Call(ctx, env, agents.ToolAdmissible, nil)
		if err != nil {
			return err
		}
		if r.Ended {
			return nil
		}
		cmds := r.Items
		if len(cmds) == 0 {
			cmds = strings.FieldsFunc(r.Text, func(c rune) bool { return c == '\n' })
		}
		if len(cmds) == 0 {
			return fmt.Errorf("random: admissible_commands listed nothing (%q)", r.Text)
		}
		_, ended, err := householdCall(ctx, env, agents.ToolAct, agents.ActArgs{Command: cmds[a.rng.IntN(len(cmds))]})
		if err != nil || ended {
			return err
		}
	}
	return fmt.Errorf("random: the trial did not end after %d calls", referenceCalls)
}
