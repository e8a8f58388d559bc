package models

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// Generation settings in a model spec: openai:MODEL?key=value&key=value
// (likewise gemini:). The keys:
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

// genParamsOf reads "MODEL?key=value&…" with applyGenParams alone. It is
// a stand-in for the model spec's option parser, which calls
// applyGenParams for the keys it does not know itself; once that parser
// is in place, it replaces this function.
func genParamsOf(rest string) (model string, p llm.GenParams, err error) {
	model, query, ok := strings.Cut(rest, "?")
	if !ok {
		return model, p, nil
	}
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		key, value, _ := strings.Cut(kv, "=")
		if value, err = url.QueryUnescape(value); err != nil {
			return "", p, fmt.Errorf("option %q: %v", kv, err)
		}
		handled, err := applyGenParams(&p, key, value)
		if err != nil {
			return "", p, err
		}
		if !handled {
			return "", p, fmt.Errorf("unknown option %q (known: temperature, seed, schema, max_tokens)", key)
		}
	}
	return model, p, nil
}

// specName is the name a live model is recorded under: the spec as given
// when it has options, so that records and cassette keys tell settings
// apart, and kind:model otherwise.
func specName(kind, model, rest string) string {
	if rest == model {
		return ""
	}
	return kind + ":" + rest
}
