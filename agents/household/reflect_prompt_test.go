package household

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// The reflection prompt is few-shot, as the Reflexion authors' is
// (generate_reflections.py, lines 25-40): two worked attempts, each
// ending in the line that it failed and its "New plan:", then the attempt
// to reflect on with the same line, the earlier notes, and the prompt
// ends by asking for the new plan. In the text shape every room and its
// task stand on consecutive lines, as in that shape's trials.
func TestReflectionPromptIsFewShot(t *testing.T) {
	for _, shape := range []bool{false, true} {
		data := reflectGolden(shape)
		text, err := render("reflexion_reflect.tmpl", data)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(text, "\nNew plan: "); n != 2 {
			t.Errorf("text shape %v: %d worked notes, want 2", shape, n)
		}
		if n := strings.Count(text, "\nThe attempt failed.\n"); n != 3 {
			t.Errorf("text shape %v: %d attempts that failed, want the two worked ones and the one to reflect on", shape, n)
		}
		if !strings.HasSuffix(text, "\nNew plan:") {
			t.Errorf("text shape %v: the prompt ends %q; want it to ask for the new plan", shape, text[max(0, len(text)-80):])
		}
		i := strings.Index(text, data.Worked)
		if i < 0 {
			t.Fatalf("text shape %v: the worked attempts are not in the prompt", shape)
		}
		worked, attempt := text[:i+len(data.Worked)], text[i+len(data.Worked):]
		if strings.Contains(attempt, "New plan: ") || !strings.Contains(attempt, data.Opening) || strings.Contains(worked, data.Opening) {
			t.Errorf("text shape %v: the worked attempts must come before the attempt to reflect on, and only they carry a note", shape)
		}
		if !strings.Contains(attempt, "Attempt "+fmt.Sprint(data.Reflections[0].Trial)+": Start at the countertop 1.") {
			t.Errorf("text shape %v: the earlier note is missing", shape)
		}
		if got := strings.Count(text, "\n\nYour task is to: "); shape && got != 0 || !shape && got != 3 {
			t.Errorf("text shape %v: %d openings with a blank line before the task", shape, got)
		}
	}
}

// The worked attempts of the reflection prompt are the engine's text of
// two training games, byte for byte, the arrival cut as the players cut
// it (alfworld_trial.py, lines 41-44), and neither reaches its goal.
func TestReflectionExamplesAreTheEngines(t *testing.T) {
	text, err := render("reflexion_worked", nil)
	if err != nil {
		t.Fatal(err)
	}
	games := strings.Split(strings.TrimSpace(text), "\n\nYou are in the middle")
	specs := []alfworld.Spec{alfworld.TrainGames(12)[3], alfworld.TrainGames(12)[10]} // train/pick_heat_then_place/00, train/pick_cool_then_place/01
	if len(games) != len(specs) {
		t.Fatalf("%d worked attempts, want %d", len(games), len(specs))
	}
	for i, s := range specs {
		game := games[i]
		if i > 0 {
			game = "You are in the middle" + game
		}
		g, err := s.BuildWith(nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := textworld.New(g.House, textworld.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opening, rest, _ := strings.Cut(game, "\n> ")
		if want := strings.TrimPrefix(g.Intro(w.Reset()), alfworld.Banner+"\n\n"); opening != want {
			t.Fatalf("%s: opening\n%s\nwant the engine's\n%s", s.ID, opening, want)
		}
		steps, _, _ := strings.Cut("> "+rest, "\nThe attempt failed.\n")
		lines := strings.Split(steps, "\n")
		for j := 0; j+1 < len(lines); j += 2 {
			cmd := strings.TrimPrefix(lines[j], "> ")
			if got, want := lines[j+1], stripArrival(w.Step(cmd)); got != want {
				t.Errorf("%s: > %s: %q, the engine says %q", s.ID, cmd, got, want)
			}
		}
		if g.Goal.Satisfied(w.State()) {
			t.Errorf("%s: the worked attempt reaches its goal; want a failed one", s.ID)
		}
	}
}
