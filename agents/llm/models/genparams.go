package models

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// Generation settings in a model spec: openai:MODEL?key=value&key=value
// (likewise gemini:, and anthropic:, which refuses a temperature or a
// seed: see anthropic.go). The keys:
//
//	temperature=      send no temperature: the provider's default (o4-mini, gpt-5)
//	temperature=1.0   send this temperature on every call, whatever the workflow asks
//	seed=             send no seed
//	seed=N            base seed (default 0; the k-th sample of a request is sent N+k)
//	schema=1          send the answer's JSON schema as structured output (default 0:
//	                  JSON is asked for in the prompt, as in the papers)
//	max_tokens=N      at most N output tokens per call

// applyGenParams sets the generation setting key of a model spec to value
// in p. handled is false when key is not a generation setting, so that the
// spec's option parser can try its own keys; err says what value was
// expected.
func applyGenParams(p *llm.GenParams, key, value string) (handled bool, err error) {
	bad := func(want string) error {
		return fmt.Errorf("option %s=%s: want %s", key, value, want)
	}
	switch key {
	case "temperature":
		if value == "" {
			p.OmitTemperature, p.Temperature = true, nil
			return true, nil
		}
		t, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(t) || t < 0 || t > 2 {
			return true, bad("a number from 0 to 2, or nothing to send the provider's default")
		}
		p.OmitTemperature, p.Temperature = false, &t
	case "seed":
		if value == "" {
			p.OmitSeed = true
			return true, nil
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return true, bad("an integer, or nothing to send no seed")
		}
		p.OmitSeed, p.Seed = false, n
	case "schema":
		switch value {
		case "1", "true":
			p.ResponseSchema = true
		case "0", "false":
			p.ResponseSchema = false
		default:
			return true, bad("1 (structured output) or 0 (JSON asked for in the prompt)")
		}
	case "max_tokens":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return true, bad("a positive number of tokens")
		}
		p.MaxTokens = n
	default:
		return false, nil
	}
	return true, nil
}

// genKeys are the keys of the generation settings, which every live
// backend takes.
var genKeys = []string{"temperature", "seed", "schema", "max_tokens"}

// liveOptions reads the options of a live spec ("MODEL?key=value&…"):
// the generation settings, and the keys in extra, which are the backend's
// own and are left in opts for it to read. spec is the whole spec, for
// errors.
func liveOptions(spec, rest string, extra ...string) (model string, gen llm.GenParams, opts specOptions, err error) {
	model, opts, err = cutOptions(spec, rest, append(append(slices.Clone(genKeys), optImages), extra...)...)
	if err != nil {
		return "", gen, opts, err
	}
	if _, err := opts.boolean(optImages); err != nil {
		return "", gen, opts, err
	}
	for _, key := range slices.Sorted(maps.Keys(opts.values)) {
		if _, err := applyGenParams(&gen, key, opts.values[key]); err != nil {
			return "", gen, opts, fmt.Errorf("model spec %q: %w", spec, err)
		}
	}
	return model, gen, opts, nil
}

// genParamsOf reads "MODEL?key=value&…" with the generation settings'
// keys alone.
func genParamsOf(rest string) (model string, p llm.GenParams, err error) {
	model, p, _, err = liveOptions(rest, rest)
	return model, p, err
}

// specName is the name a live model is recorded under: the spec as given
// when it has options, so that records and cassette keys tell settings
// apart, and kind:model otherwise.
// The context option is left out: it says how a request reaches
// serve-sim, not what the model is asked, and a record over serve-sim is
// the record of the model behind it.
func specName(kind, model, rest string) string {
	_, query, _ := strings.Cut(rest, "?")
	var kept []string
	for _, kv := range strings.Split(query, "&") {
		if key, _, _ := strings.Cut(kv, "="); kv != "" && key != optContext {
			kept = append(kept, kv)
		}
	}
	if len(kept) == 0 {
		return kind + ":" + model
	}
	return kind + ":" + model + "?" + strings.Join(kept, "&")
}
