package models

import (
	"github.com/ambibench/ambibench/agents/llm"
)

// openLive opens the backends that call out, and the cassettes.
func openLive(kind, rest, spec string, getenv func(string) string, bad func(string) error) (llm.Model, error) {
	return nil, bad("unknown kind " + kind)
}
