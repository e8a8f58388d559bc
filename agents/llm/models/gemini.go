package models

import (
	"errors"

	"github.com/ambibench/ambibench/agents/llm"
)

func openGemini(model string, getenv func(string) string) (llm.Model, error) {
	return nil, errors.New("gemini: backend not in this build yet")
}
