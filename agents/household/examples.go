package household

import (
	"embed"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
)

// The worked examples of the ReAct prompt: two solved games of each task
// type, and a game is shown the two of its own type, as the Reflexion
// authors' loop shows two of the game's type (alfworld_trial.py, lines
// 122-124). Each is a game of the training split played by the expert,
// the text the engine's own, with the project's thoughts between the
// commands; examples_test.go writes them (-update) and replays them
// against the engine byte for byte.

//go:embed examples/*.txt
var exampleFS embed.FS

// examplesPerType is how many worked games a prompt shows.
const examplesPerType = 2

// exampleFile names the file of the i-th example of a type.
func exampleFile(taskType string, i int) string {
	return fmt.Sprintf("examples/%s_%02d.txt", taskType, i)
}

// examplesFor is the text of a type's worked games, one after the other
// with a blank line between.
func examplesFor(taskType string) (string, error) {
	games, err := exampleGames(taskType)
	if err != nil {
		return "", err
	}
	return strings.Join(games, "\n\n"), nil
}

// exampleGames are a type's worked games, each without a final newline.
func exampleGames(taskType string) ([]string, error) {
	var games []string
	for i := range examplesPerType {
		b, err := exampleFS.ReadFile(exampleFile(taskType, i))
		if err != nil {
			return nil, fmt.Errorf("household: no worked example %d for task type %q: %w", i, taskType, err)
		}
		games = append(games, strings.TrimRight(string(b), "\n"))
	}
	return games, nil
}

// taskTyper is an Env that names its game's task type, as the harness
// knows it from the game (the authors' loop, from the game file's name).
type taskTyper interface{ TaskType() string }

// taskTypeOf is the task type of the Env's game: the harness's word, or
// else the type the instruction reads as; pick_and_place when it reads as
// none.
func taskTypeOf(env agents.Env) string {
	if t, ok := env.(taskTyper); ok && t.TaskType() != "" {
		return t.TaskType()
	}
	if t, err := housework.ParseInstruction(env.Instruction()); err == nil && t.Type != "" {
		return t.Type
	}
	return housework.TypePickAndPlace
}
