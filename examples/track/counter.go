package jars

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents"
)

func init() {
	agents.RegisterOn([]string{Name}, "counter", "jars: counts the marbles of the colour asked about", func(agents.Config) (agents.Agent, error) { return counter{}, nil })
}

// counter is the track's reference agent: it reads the instruction and
// counts.
type counter struct{}

func (counter) Run(ctx context.Context, env agents.Env) error {
	text := env.Instruction()
	desc, question, ok := strings.Cut(text, ". How many ")
	if !ok {
		return fmt.Errorf("counter: cannot read %q", text)
	}
	colour, _, _ := strings.Cut(question, " ")
	n := 0
	for _, part := range strings.Split(strings.TrimPrefix(desc, "The jar holds "), ", ") {
		switch f := strings.Fields(part); {
		case len(f) == 2 && f[0] == "a" && f[1] == colour:
			n++
		case len(f) == 2 && f[1] == colour:
			k, err := strconv.Atoi(f[0])
			if err != nil {
				return fmt.Errorf("counter: %q: %w", part, err)
			}
			n += k
		}
	}
	args, _ := json.Marshal(map[string]int{"n": n})
	_, err := env.Call(ctx, agents.ToolCall{Name: "guess", Args: args})
	return err
}
