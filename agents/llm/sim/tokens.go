package sim

import "github.com/ambibench/ambibench/agents/llm"

// CountTokens estimates a request's input tokens as a quarter of its
// characters, the usual rule of thumb for English text and JSON. It is what
// the simulated model reports as input tokens and what scales its errors.
func CountTokens(req llm.Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, tc := range m.ToolCalls {
			n += len(tc.Name) + len(tc.Args)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	return (n + 3) / 4
}

func outputTokens(r llm.Reply) int {
	n := len(r.Text)
	for _, tc := range r.ToolCalls {
		n += len(tc.Name) + len(tc.Args)
	}
	return (n + 3) / 4
}
