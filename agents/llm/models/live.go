package models

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/agents/llm/gemini"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/openai"
)

// optContext is the openai option that sends the call context, for
// serve-sim: "openai:sim?context=1".
const optContext = "context"

// optDetail is the openai option that sets the detail of every image sent,
// "openai:gpt-4o?detail=low" (openai.Options.ImageDetail).
const optDetail = "detail"

// optMediaResolution is the gemini option that sets the media resolution
// of every call, "gemini:MODEL?media_resolution=low"
// (gemini.Options.MediaResolution).
const optMediaResolution = "media_resolution"

// imageDetail reads the openai option detail: low, high or auto; absent
// sends none.
func imageDetail(spo specOptions) (string, error) {
	return spo.oneOf(optDetail, openai.DetailLow, openai.DetailHigh, openai.DetailAuto)
}

// mediaResolution reads the gemini option media_resolution: low, medium
// or high; absent sends none.
func mediaResolution(spo specOptions) (string, error) {
	return spo.oneOf(optMediaResolution, gemini.MediaLow, gemini.MediaMedium, gemini.MediaHigh)
}

// CallTimeout bounds one call to a live model, each attempt counted apart.
const CallTimeout = 2 * time.Minute

// openLive opens the backends that call out, and the cassettes.
func openLive(kind, rest, spec string, getenv func(string) string, bad func(string) error, opts Options) (llm.Model, error) {
	opts.secrets = envSecrets(getenv)
	switch kind {
	case "openai":
		model, gen, spo, err := liveOptions(spec, rest, optContext, optDetail)
		if err != nil {
			return nil, err
		}
		if model == "" {
			return nil, bad("openai needs a model name, as in openai:gpt-4o-mini")
		}
		// context=1 is for serve-sim only: it sends the call context that
		// the simulated model behind it reads (see openai.Options).
		sendContext, err := spo.boolean(optContext)
		if err != nil {
			return nil, err
		}
		detail, err := imageDetail(spo)
		if err != nil {
			return nil, err
		}
		m, err := openai.New(model, openai.Options{APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL"),
			GenParams: gen, MaxReplyBytes: opts.MaxReplyBytes, Name: specName(kind, model, rest), SendContext: sendContext,
			ImageDetail: detail})
		if err != nil {
			return nil, err
		}
		return live(m, opts), nil
	case "gemini":
		model, gen, spo, err := liveOptions(spec, rest, optMediaResolution)
		if err != nil {
			return nil, err
		}
		if model == "" {
			return nil, bad("gemini needs a model name, as in gemini:gemini-2.5-flash")
		}
		media, err := mediaResolution(spo)
		if err != nil {
			return nil, err
		}
		return openGemini(model, getenv, gemini.Options{GenParams: gen, MaxReplyBytes: opts.MaxReplyBytes, Name: specName(kind, model, rest),
			MediaResolution: media}, opts)
	case "anthropic":
		model, gen, spo, err := liveOptions(spec, rest)
		if err != nil {
			return nil, err
		}
		if model == "" {
			return nil, bad(anthropicNoName)
		}
		if err := anthropicSettings(spo); err != nil {
			return nil, err
		}
		return openAnthropic(model, getenv, anthropic.Options{GenParams: gen, MaxReplyBytes: opts.MaxReplyBytes, Name: specName(kind, model, rest)}, opts)
	case "record":
		dir, inner, ok := strings.Cut(rest, "=")
		if !ok || dir == "" || inner == "" {
			return nil, bad("record takes DIR=SPEC, as in record:cassettes=openai:gpt-4o-mini")
		}
		next, err := open(inner, getenv, opts)
		if err != nil {
			return nil, err
		}
		// A live inner model's replies come redacted; a reply served
		// from a cassette recorded before redaction, or by hand, is
		// redacted here.
		m, err := cassette.Record(dir, next)
		if err != nil {
			return nil, err
		}
		return middleware.Redact(m, opts.secrets), nil
	case "replay":
		dir, model, err := replayArgs(rest, bad)
		if err != nil {
			return nil, err
		}
		if model != "" {
			if _, err := os.Stat(dir); err != nil {
				if info, whole := os.Stat(rest); whole == nil && info.IsDir() {
					return nil, bad(fmt.Sprintf("replay reads DIR=MODEL up to the first '=': DIR %q and MODEL %q; the directory %q holds an '=' (rename it, or name a link to it)", dir, model, rest))
				}
			}
		}
		m, err := cassette.Replay(dir, model)
		if err != nil {
			return nil, err
		}
		return middleware.Redact(m, opts.secrets), nil
	}
	return nil, bad(unknownKind(kind))
}

// live wraps a backend that calls out: each attempt has a deadline, and
// rate limits, server errors, timeouts and malformed replies are retried
// with backoff (opts.MaxAttempts attempts in all, waiting for a Retry-After
// of up to opts.MaxRetryAfter); bad requests, refusals and refused keys
// are not.
func live(m llm.Model, opts Options) llm.Model {
	timeout := opts.CallTimeout
	if timeout <= 0 {
		timeout = CallTimeout
	}
	retry := middleware.RetryOptions{MaxAttempts: opts.MaxAttempts, MaxRetryAfter: opts.MaxRetryAfter}
	if opts.Logger != nil {
		name := m.Name()
		retry.OnRetry = func(attempt int, err error) {
			opts.Logger.Warn("model call failed; retrying", "model", name, "attempt", attempt, "kind", llm.KindOf(err).String(), "error", err)
		}
	}
	// Innermost, so that neither the retries' log nor anything outside
	// sees a key a server echoed.
	return liveWith(middleware.Redact(m, opts.secrets), retry, timeout)
}

func liveWith(m llm.Model, retry middleware.RetryOptions, timeout time.Duration) llm.Model {
	return middleware.Chain(m,
		func(m llm.Model) llm.Model { return middleware.Timeout(m, timeout) },
		func(m llm.Model) llm.Model { return middleware.Retry(m, retry) },
	)
}
