// Package models opens a language model from a spec string, the one way
// users pick a model: AMBIBENCH_MODEL for `go test -bench`, --model for the
// command.
//
//	sim                          the simulated model, default profile
//	sim:perfect | sim:weak       named profiles
//	sim:hallucinate=0.1,tag=0.3  explicit error rates
//	sim:salt=2 | sim:weak,salt=3  the same rates with independent draws (a stream salt)
//	gemini:MODEL                 Gemini (GEMINI_API_KEY or GOOGLE_API_KEY; Vertex AI
//	                             with GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION)
//	openai:MODEL                 OpenAI, or any OpenAI-compatible server at OPENAI_BASE_URL
//	openai:MODEL?temperature=&seed=7&schema=1&max_tokens=N
//	                             generation settings, for gemini: too (see genparams.go)
//	openai:MODEL?context=1       the same, sending each call's context for ambibench serve-sim
//	openai:MODEL?detail=low      the detail (low, high, auto) of every image sent; default none
//	gemini:MODEL?media_resolution=low
//	                             the media resolution (low, medium, high) of every call; default none
//	anthropic:MODEL              Claude over Anthropic's Messages API (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL
//	                             for a proxy); of the generation settings it takes schema= and max_tokens=,
//	                             and refuses a temperature or a seed, which the API cannot take (see anthropic.go)
//	record:DIR=SPEC              SPEC, with every call stored in DIR (and served from it when stored)
//	replay:DIR                   only what DIR holds; never calls out; the model it was recorded from
//	                             read from DIR's files, which must be of one model
//	replay:DIR=MODEL             the same, of MODEL, the name the recordings were made under: the
//	                             SPEC of record:DIR=SPEC without a context= option (record:c=openai:sim?context=1
//	                             replays as replay:c=openai:sim); no recording is read before it is needed
//
// Every model is wrapped so that its calls are counted in the episode's
// llm.Tally; live models also get retries with backoff and a per-call
// timeout.
package models

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// Forms lists the valid spec forms, for error messages and help.
const Forms = "sim, sim:perfect, sim:weak, sim:NAME=RATE,… (rates: hallucinate, multiplicity, absence, vague, negation, tag, malformed, skip, loop, overreflect, coord, miss, colorswap, duplicate, phantom, growth), any sim spec with a stream salt salt=N (sim:salt=2, sim:weak,salt=3), gemini:MODEL, openai:MODEL, anthropic:MODEL, openai:MODEL?context=1 (for serve-sim), record:DIR=SPEC, replay:DIR, replay:DIR=MODEL"

// Default is the spec used when none is given.
const Default = "sim"

// Options shape every call to an opened model.
type Options struct {
	// RequestsPerMinute and TokensPerMinute cap the rate of calls; zero
	// means no cap.
	RequestsPerMinute, TokensPerMinute int
	// MaxInFlight caps the calls waiting for a reply at once; zero means
	// no cap.
	MaxInFlight int
	// Transcript, if set, receives one JSON line per call: the episode,
	// the request, the reply or error, usage and latency.
	Transcript io.Writer
	// TranscriptImages, if set with Transcript, is the directory whose
	// images/ keeps the bytes of the images the transcript's requests
	// show, each once (the run directory).
	TranscriptImages string
	// MaxAttempts caps the attempts at one call to a live model, the
	// first included (0: middleware.DefaultMaxAttempts; 1: no retries).
	MaxAttempts int
	// MaxRetryAfter is the longest Retry-After a live model's server may
	// ask for and be waited for (0: middleware.DefaultMaxRetryAfter); a
	// longer one ends the call's retries.
	MaxRetryAfter time.Duration
	// CallTimeout bounds each attempt at a call to a live model (0:
	// CallTimeout, two minutes).
	CallTimeout time.Duration
	// Logger, if set, is told of every retry of a live model's call and
	// of every wait for the rate limits.
	Logger *slog.Logger
	// MaxReplyBytes caps the body of one reply of a live model (0:
	// llm.DefaultMaxReplyBytes); a longer reply is the agent's failure,
	// llm.KindTooLarge.
	MaxReplyBytes int64

	// secrets are the keys of the environment, taken out of every reply
	// and error of a live model or a cassette (set by openLive).
	secrets llm.Secrets
}

// secretVars are the variables that hold keys: every reply and error of
// a live model or a cassette is cleared of their values, whichever
// provider's they are, so that a server echoing a key (its own or
// another's) cannot put it in a file (docs/contracts.md, "Secrets").
var secretVars = []string{"OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}

// envSecrets reads the keys of secretVars.
func envSecrets(getenv func(string) string) llm.Secrets {
	values := make([]string, len(secretVars))
	for i, v := range secretVars {
		values[i] = getenv(v)
	}
	return llm.NewSecrets(values...)
}

// Open returns the model a spec names, with no caps and no transcript.
// getenv supplies keys and endpoints (os.Getenv in the command; nil or a
// map in tests).
func Open(spec string, getenv func(string) string) (llm.Model, error) {
	return OpenWith(spec, getenv, Options{})
}

// OpenWith returns the model a spec names, wrapped as opts says. Calls are
// always counted in the episode's llm.Tally.
func OpenWith(spec string, getenv func(string) string, opts Options) (llm.Model, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	m, err := open(spec, getenv, opts)
	if err != nil {
		return nil, err
	}
	m = middleware.Limit(m, opts.MaxInFlight)
	var onWait func(string, time.Duration)
	if opts.Logger != nil {
		name := m.Name()
		onWait = func(budget string, d time.Duration) {
			opts.Logger.Info("waited for the rate limit", "model", name, "budget", budget, "waited", d)
		}
	}
	m = middleware.RateLimitNotify(m, opts.RequestsPerMinute, opts.TokensPerMinute, onWait)
	if opts.Transcript != nil {
		if opts.TranscriptImages != "" {
			m = middleware.TranscriptImages(m, opts.Transcript, opts.TranscriptImages)
		} else {
			m = middleware.Transcript(m, opts.Transcript)
		}
	}
	return middleware.Account(m), nil
}

// kindsBrief names the kinds of spec, for an error that cannot tell
// which was meant; the command's help, which lists Forms, gives each in
// full. (The error once ended in all of Forms, 400 characters repeated
// after every mistake, a rate's typo included.)
const kindsBrief = `sim[:PROFILE], gemini:MODEL, openai:MODEL, anthropic:MODEL, record:DIR=SPEC or replay:DIR[=MODEL] ("ambibench run --help" gives every form)`

// specError is the error of a spec that cannot be read: the spec, then
// why.
func specError(spec string) func(why string) error {
	return func(why string) error { return fmt.Errorf("model spec %q: %s", spec, why) }
}

// unknownKind is why for a spec whose kind is not one of kindsBrief.
func unknownKind(kind string) string {
	if kind == "" {
		return "empty; valid forms: " + kindsBrief
	}
	return fmt.Sprintf("unknown kind %q; valid forms: %s", kind, kindsBrief)
}

// simProfile reads the part of a sim spec after "sim". hasRest says the
// spec had a colon: "sim:" with nothing after it is refused, since the
// records would name the model "sim:" and the default profile under it
// would pass for a profile the user meant to write.
func simProfile(rest string, hasRest bool, bad func(string) error) (simmodel.Profile, error) {
	if hasRest && strings.TrimSpace(rest) == "" {
		return simmodel.Profile{}, bad(`nothing after "sim:"; write sim for the default profile, or sim:PROFILE (perfect, weak, or rates NAME=RATE,…)`)
	}
	p, err := simmodel.ParseProfile(rest)
	if err != nil {
		return simmodel.Profile{}, bad(err.Error())
	}
	return p, nil
}

func open(spec string, getenv func(string) string, opts Options) (llm.Model, error) {
	spec = strings.TrimSpace(spec)
	kind, rest, hasRest := strings.Cut(spec, ":")
	bad := specError(spec)
	switch kind {
	case "sim":
		p, err := simProfile(rest, hasRest, bad)
		if err != nil {
			return nil, err
		}
		return simmodel.New(p, spec), nil
	case "":
		return nil, bad(unknownKind(kind))
	}
	return openLive(kind, rest, spec, getenv, bad, opts)
}
