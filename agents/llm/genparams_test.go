package llm_test

import (
	"encoding/json"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestGenParams(t *testing.T) {
	one := 1.0
	req := llm.Request{Temperature: 0.8, Sample: 2, MaxOutputTokens: 500, ResponseSchema: json.RawMessage(`{"type":"object"}`)}
	tests := []struct {
		name, why  string
		p          llm.GenParams
		req        llm.Request
		temp       float64
		sendTemp   bool
		seed       int64
		sendSeed   bool
		maxTokens  int
		sendSchema bool
	}{
		{"zero", "the request's settings; a seed is always sent, 0 plus the sample", llm.GenParams{}, req, 0.8, true, 2, true, 500, false},
		{"omit temperature", "reasoning models take only their default", llm.GenParams{OmitTemperature: true, Temperature: &one}, req, 0, false, 2, true, 500, false},
		{"fixed temperature", "Gemini 3 at its recommended 1.0", llm.GenParams{Temperature: &one}, req, 1, true, 2, true, 500, false},
		{"base seed", "a spec's seed, plus the sample", llm.GenParams{Seed: 40}, req, 0.8, true, 42, true, 500, false},
		{"request seed", "the request's own seed wins over the base", llm.GenParams{Seed: 40}, llm.Request{Seed: 7}, 0, true, 7, true, 0, false},
		{"omit seed", "for servers that refuse one", llm.GenParams{OmitSeed: true}, req, 0.8, true, 0, false, 500, false},
		{"cap below", "max_tokens caps a larger request", llm.GenParams{MaxTokens: 100}, req, 0.8, true, 2, true, 100, false},
		{"cap above", "a smaller request limit stays", llm.GenParams{MaxTokens: 1000}, req, 0.8, true, 2, true, 500, false},
		{"cap fills", "max_tokens applies when the request sets none", llm.GenParams{MaxTokens: 64}, llm.Request{}, 0, true, 0, true, 64, false},
		{"schema", "structured output is sent only when asked for", llm.GenParams{ResponseSchema: true}, req, 0.8, true, 2, true, 500, true},
		{"schema without one", "no schema in the request, none sent", llm.GenParams{ResponseSchema: true}, llm.Request{}, 0, true, 0, true, 0, false},
		{"request leaves it", "a request that leaves the temperature to the provider sends none", llm.GenParams{}, llm.Request{OmitTemperature: true, Temperature: 0.3}, 0, false, 0, true, 0, false},
		{"spec sets it", "the spec's temperature wins over a request that leaves it", llm.GenParams{Temperature: &one}, llm.Request{OmitTemperature: true}, 1, true, 0, true, 0, false},
		{"spec omits too", "neither sends one", llm.GenParams{OmitTemperature: true}, llm.Request{OmitTemperature: true}, 0, false, 0, true, 0, false},
	}
	for _, tc := range tests {
		temp, sendTemp := tc.p.TemperatureFor(tc.req)
		seed, sendSeed := tc.p.SeedFor(tc.req)
		if temp != tc.temp || sendTemp != tc.sendTemp || seed != tc.seed || sendSeed != tc.sendSeed ||
			tc.p.MaxTokensFor(tc.req) != tc.maxTokens || (tc.p.SchemaFor(tc.req) != nil) != tc.sendSchema {
			t.Errorf("%s (%s): temperature %v/%v seed %v/%v max %d schema %v", tc.name, tc.why,
				temp, sendTemp, seed, sendSeed, tc.p.MaxTokensFor(tc.req), tc.p.SchemaFor(tc.req) != nil)
		}
	}
}
