package models

import (
	"fmt"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/openai"
)

// optContext is the openai option that sends the call context, for
// serve-sim: "openai:sim?context=1".
const optContext = "context"

// CallTimeout bounds one call to a live model, each attempt counted apart.
const CallTimeout = 2 * time.Minute

// openLive opens the backends that call out, and the cassettes.
func openLive(kind, rest, spec string, getenv func(string) string, bad func(string) error) (llm.Model, error) {
	switch kind {
	case "openai":
		name, opts, err := cutOptions(spec, rest, optContext)
		if err != nil {
			return nil, err
		}
		if name == "" {
			return nil, bad("openai needs a model name, as in openai:gpt-4o-mini")
		}
		// context=1 is for serve-sim only: it sends the call context that
		// the simulated model behind it reads (see openai.Options).
		sendContext, err := opts.boolean(optContext)
		if err != nil {
			return nil, err
		}
		m, err := openai.New(name, openai.Options{APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL"), SendContext: sendContext})
		if err != nil {
			return nil, err
		}
		return live(m), nil
	case "gemini":
		name, _, err := cutOptions(spec, rest)
		if err != nil {
			return nil, err
		}
		if name == "" {
			return nil, bad("gemini needs a model name, as in gemini:gemini-2.5-flash")
		}
		return openGemini(name, getenv)
	case "record":
		dir, inner, ok := strings.Cut(rest, "=")
		if !ok || dir == "" || inner == "" {
			return nil, bad("record takes DIR=SPEC, as in record:cassettes=openai:gpt-4o-mini")
		}
		next, err := open(inner, getenv)
		if err != nil {
			return nil, err
		}
		return cassette.Record(dir, next)
	case "replay":
		if rest == "" {
			return nil, bad("replay takes a directory, as in replay:cassettes")
		}
		return cassette.Replay(rest, "")
	}
	return nil, bad(fmt.Sprintf("unknown kind %q", kind))
}

// live wraps a backend that calls out: each attempt has a deadline, and
// rate limits, server errors, timeouts and malformed replies are retried
// with backoff (middleware.DefaultMaxAttempts attempts in all); bad
// requests and refused keys are not.
func live(m llm.Model) llm.Model { return liveWith(m, middleware.RetryOptions{}, CallTimeout) }

func liveWith(m llm.Model, retry middleware.RetryOptions, timeout time.Duration) llm.Model {
	return middleware.Chain(m,
		func(m llm.Model) llm.Model { return middleware.Timeout(m, timeout) },
		func(m llm.Model) llm.Model { return middleware.Retry(m, retry) },
	)
}
