package household

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// exampleSpecs are the training games the worked examples are made
// from: the first two of each task type.
func exampleSpecs() []alfworld.Spec {
	return alfworld.TrainGames(examplesPerType * len(alfworld.Types()))
}

// playExample plays a training game with the expert in the engine and
// writes it as the ReAct prompt shows a trial: the opening without
// ALFWorld's banner (alfworld_trial.py, line 107), then each command
// after "> " and what the engine answered, with "You arrive at loc N. "
// cut (alfworld_trial.py, lines 41-44). Thoughts are commands too, sent
// to the engine, which answers them "OK.".
func playExample(s alfworld.Spec) (string, error) {
	g, err := s.BuildWith(nil)
	if err != nil {
		return "", err
	}
	plan, err := g.Expert(textworld.GrammarV03)
	if err != nil {
		return "", err
	}
	w, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(strings.TrimPrefix(g.Intro(w.Reset()), alfworld.Banner+"\n\n") + "\n")
	send := func(cmd string) {
		fmt.Fprintf(&b, "> %s\n%s\n", cmd, stripArrival(w.Step(cmd)))
	}
	for i, cmd := range plan {
		if th := exampleThought(g, plan, i); th != "" {
			send("think: " + th)
		}
		send(cmd)
	}
	if !g.Goal.Satisfied(w.State()) {
		return "", fmt.Errorf("%s: the expert's plan does not reach the goal", s.ID)
	}
	return b.String(), nil
}

// exampleThought is the thought written before plan[i], or "": the plan
// at the start, and what comes next after the object is taken and after
// it is treated. The words are the project's own.
func exampleThought(g *alfworld.Game, plan []string, i int) string {
	kind := g.Goal.Kind
	first := func(verb string) string { // the first argument of a command
		for _, c := range plan {
			if rest, ok := strings.CutPrefix(c, verb+" "); ok {
				return rest
			}
		}
		return ""
	}
	last := func(c, sep string) string { _, r, _ := strings.Cut(c, sep); return r }
	var dest, appliance string
	for _, c := range plan {
		switch {
		case strings.HasPrefix(c, "put "):
			dest = last(c, " in/on ")
		case strings.HasPrefix(c, "heat "), strings.HasPrefix(c, "cool "), strings.HasPrefix(c, "clean "):
			appliance = last(c, " with ")
		}
	}
	treat := map[string]string{alfworld.StateHot: "heat", alfworld.StateCold: "cool", alfworld.StateClean: "clean"}[g.Goal.State]
	if i == 0 {
		where := first("go to")
		switch {
		case g.Type == alfworld.TypeLookAtObjInLight:
			return fmt.Sprintf("I am to hold a %s where a %s is, with the %s switched on. First the %s: the %s is a likely place for one.", kind, g.Goal.Lamp, g.Goal.Lamp, kind, where)
		case g.Type == alfworld.TypePickTwoObjAndPlace:
			return fmt.Sprintf("Two %s must end in one %s, and I can carry only one at a time. I look for the first at the %s.", alfworld.Plural(kind), g.Goal.Dest, where)
		case treat != "":
			return fmt.Sprintf("I need a %s, to %s before it goes in or on a %s. I look for one first, at the %s.", kind, treat, g.Goal.Dest, where)
		}
		return fmt.Sprintf("I need a %s to put in or on a %s. I look for one first, at the %s.", kind, g.Goal.Dest, where)
	}
	prev := plan[i-1]
	switch {
	case strings.HasPrefix(prev, "take "):
		obj, _, _ := strings.Cut(strings.TrimPrefix(prev, "take "), " from ")
		switch {
		case g.Type == alfworld.TypeLookAtObjInLight:
			return fmt.Sprintf("I hold the %s. Now the %s: I go where I expect one and switch it on there.", obj, g.Goal.Lamp)
		case g.Type == alfworld.TypePickTwoObjAndPlace && strings.Count(strings.Join(plan[:i], "\n"), "take ") == 1:
			return fmt.Sprintf("That is the first %s, the %s. It goes to the %s, and then I look for the second.", kind, obj, dest)
		case g.Type == alfworld.TypePickTwoObjAndPlace:
			return fmt.Sprintf("The %s is the second %s. Back to the %s with it.", obj, kind, dest)
		case treat != "":
			return fmt.Sprintf("I hold the %s. Before it goes to the %s I %s it with the %s.", obj, dest, treat, appliance)
		}
		return fmt.Sprintf("I hold the %s. Now to the %s.", obj, dest)
	case treat != "" && strings.HasPrefix(prev, treat+" "):
		obj, _, _ := strings.Cut(strings.TrimPrefix(prev, treat+" "), " with ")
		done := map[string]string{"heat": "hot", "cool": "cool", "clean": "clean"}[treat]
		return fmt.Sprintf("The %s is %s now; it goes to the %s.", obj, done, dest)
	}
	return ""
}

// TestExamplesAreTheEngines writes the worked examples (-update) and
// replays each, command by command, against the engine: the opening and
// every observation, with the arrival cut as the prompt cuts it, must be
// the engine's byte for byte, and the last command must reach the goal.
func TestExamplesAreTheEngines(t *testing.T) {
	for _, s := range exampleSpecs() {
		file := exampleFile(s.Type, s.Index)
		if *update {
			text, err := playExample(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.FromSlash(file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := exampleFS.ReadFile(file)
		if *update {
			b, err = os.ReadFile(filepath.FromSlash(file))
		}
		if err != nil {
			t.Fatal(err)
		}
		replayExample(t, s, file, string(b))
	}
}

func replayExample(t *testing.T, s alfworld.Spec, file, text string) {
	t.Helper()
	g, err := s.BuildWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opening, steps, ok := strings.Cut(text, "\n> ")
	if !ok {
		t.Fatalf("%s: no command", file)
	}
	if want := strings.TrimPrefix(g.Intro(w.Reset()), alfworld.Banner+"\n\n"); opening != want {
		t.Fatalf("%s: opening\n%s\nwant the engine's\n%s", file, opening, want)
	}
	lines := strings.Split(strings.TrimSuffix("> "+steps, "\n"), "\n")
	if len(lines)%2 != 0 {
		t.Fatalf("%s: %d lines after the opening; want command and observation pairs", file, len(lines))
	}
	thoughts := 0
	for i := 0; i < len(lines); i += 2 {
		cmd, ok := strings.CutPrefix(lines[i], "> ")
		if !ok {
			t.Fatalf("%s: line %q: want a command", file, lines[i])
		}
		if strings.HasPrefix(cmd, "think: ") {
			thoughts++
		}
		if got, want := lines[i+1], stripArrival(w.Step(cmd)); got != want {
			t.Errorf("%s: > %s: %q, the engine says %q", file, cmd, got, want)
		}
		if won := g.Goal.Satisfied(w.State()); won != (i+2 == len(lines)) {
			t.Errorf("%s: > %s: goal %v; want it reached by the last command only", file, cmd, won)
		}
	}
	if thoughts < 2 {
		t.Errorf("%s: %d thoughts; want the plan and what comes next spelled out", file, thoughts)
	}
}

// typedHouse is a fakeHouse whose harness names the game's task type.
type typedHouse struct {
	*fakeHouse
	taskType string
}

func (e typedHouse) TaskType() string { return e.taskType }

// The system prompt shows the two worked games of the game's own task
// type and none of another's, as the authors' loop picks them by the
// game's type (alfworld_trial.py, lines 122-124); an Env that names no
// type gets those of the type its instruction reads as.
func TestExamplesChosenByTaskType(t *testing.T) {
	first := func(file string) string { // an example's opening line, which no other shares
		b, err := exampleFS.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, task, _ := strings.Cut(string(b), "Your task is to: ")
		line, _, _ := strings.Cut(task, "\n")
		return "Your task is to: " + line + "\n> think: "
	}
	for _, tc := range []struct {
		why string
		env func() agents.Env
		typ string
	}{
		{"the harness says heat", func() agents.Env { return typedHouse{newFakeHouse(1), alfworld.TypePickHeatThenPlace} }, alfworld.TypePickHeatThenPlace},
		{"the harness says pick-two", func() agents.Env { return typedHouse{newFakeHouse(1), alfworld.TypePickTwoObjAndPlace} }, alfworld.TypePickTwoObjAndPlace},
		{"the harness says look", func() agents.Env { return typedHouse{newFakeHouse(1), alfworld.TypeLookAtObjInLight} }, alfworld.TypeLookAtObjInLight},
		{"no word from the harness: the instruction reads as put", func() agents.Env { return newFakeHouse(1) }, alfworld.TypePickAndPlace},
	} {
		model := &houseModel{plans: acts(winning...)}
		agent, err := agenttest.Workflow(t, "react", model)
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.Run(context.Background(), tc.env()); err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		system := model.reqs[0].System
		for _, s := range exampleSpecs() {
			shown := strings.Contains(system, first(exampleFile(s.Type, s.Index)))
			if want := s.Type == tc.typ; shown != want {
				t.Errorf("%s: example %s shown %v, want %v", tc.why, s.ID, shown, want)
			}
		}
	}
}
