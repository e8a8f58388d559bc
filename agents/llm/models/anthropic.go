package models

import (
	"fmt"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
)

// anthropicNoName is what a spec without a model name is told.
const anthropicNoName = "anthropic needs a model name, as in anthropic:claude-sonnet-5-5"

// anthropicUnsent says, for each generation setting the anthropic backend
// cannot send, why.
var anthropicUnsent = map[string]string{
	"temperature": "the Messages API, at the version the SDK speaks (2026-10-21), refuses any temperature",
	"seed":        "the Messages API has no seed",
}

// anthropicSettings refuses a spec that sets what the anthropic backend
// cannot send, a temperature or a seed, rather than ignore it. The forms
// that send none ("temperature=", "seed=") are what the backend does
// anyway, and pass.
func anthropicSettings(spo specOptions) error {
	for _, key := range []string{"temperature", "seed"} {
		if v, ok := spo.values[key]; ok && v != "" {
			return fmt.Errorf("model spec %q: option %s=%s: the anthropic backend sends no %s (%s); leave the option out", spo.spec, key, v, key, anthropicUnsent[key])
		}
	}
	return nil
}

// openAnthropic reads the Anthropic settings from the environment: the key
// from ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for a proxy or a local
// server. opts holds what the spec set; mopts shape the calls.
func openAnthropic(model string, getenv func(string) string, opts anthropic.Options, mopts Options) (llm.Model, error) {
	opts.APIKey = getenv("ANTHROPIC_API_KEY")
	opts.BaseURL = getenv("ANTHROPIC_BASE_URL")
	m, err := anthropic.New(model, opts)
	if err != nil {
		return nil, err
	}
	return live(m, mopts), nil
}
