package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/genai"

	"github.com/ambibench/ambibench/agents/llm"
)

// Backends a Model can use.
const (
	BackendGemini = "gemini" // the Gemini Developer API (an API key)
	BackendVertex = "vertex" // Vertex AI (project and location, or an API key)
)

// DefaultBaseURL is the Gemini Developer API, used when Options.BaseURL is
// empty and the backend is BackendGemini.
const DefaultBaseURL = "https://generativelanguage.googleapis.com/"

// PlaceholderKey is sent when a BaseURL is set but no key is given.
const PlaceholderKey = "unused"

// Media resolutions (Options.MediaResolution): how many tokens Gemini
// spends on an image, and so how closely it looks.
const (
	MediaLow    = "low"
	MediaMedium = "medium"
	MediaHigh   = "high"
)

// mediaResolutions maps Options.MediaResolution to the API's values.
var mediaResolutions = map[string]genai.MediaResolution{
	MediaLow:    genai.MediaResolutionLow,
	MediaMedium: genai.MediaResolutionMedium,
	MediaHigh:   genai.MediaResolutionHigh,
}

// Options configure a Model. The caller reads them from the environment.
// For the Gemini API the backend sets key and endpoint itself, so the SDK's
// own environment variables have no effect; for Vertex AI the SDK may fill
// an empty project, location or key from GOOGLE_CLOUD_PROJECT,
// GOOGLE_CLOUD_LOCATION and GOOGLE_API_KEY.
type Options struct {
	// APIKey is the Gemini API key (or a Vertex AI express-mode key).
	APIKey string
	// BaseURL replaces the API endpoint, for a proxy or a local test server.
	BaseURL string
	// HTTPClient, if set, carries the requests (and its Timeout applies).
	// For Vertex AI without an API key it must add credentials itself;
	// without it, application default credentials are used.
	HTTPClient *http.Client
	// Backend is BackendGemini (the default when empty) or BackendVertex.
	Backend string
	// Project and Location select the Vertex AI endpoint.
	Project, Location string
	// GenParams are the generation settings of the model spec.
	GenParams llm.GenParams
	// MaxReplyBytes caps the body of one reply (0: llm.DefaultMaxReplyBytes);
	// a longer one fails as llm.KindTooLarge, having cost at most that.
	MaxReplyBytes int64
	// Name, if set, is what Name returns: the whole model spec, options
	// included. Empty means "gemini:" and the model name.
	Name string
	// MediaResolution, if set, is sent as the generation config's
	// mediaResolution on every call: MediaLow, MediaMedium or MediaHigh.
	// Empty sends none, so that the model's default applies. The model
	// spec "gemini:MODEL?media_resolution=low" sets it.
	MediaResolution string
}

// Model is a Gemini model. It is safe for concurrent use.
type Model struct {
	model  string
	name   string
	key    string
	gen    llm.GenParams
	media  genai.MediaResolution
	client *genai.Client
	// noIDs is set once the model has refused function-call ids (some
	// Vertex AI models do); from then on this Model sends none. It is per
	// opened model, as models of one endpoint differ.
	noIDs atomic.Bool
}

var _ llm.Model = (*Model)(nil)

// New returns the model named model on the backend opts describe.
func New(model string, opts Options) (*Model, error) {
	if model == "" {
		return nil, errors.New("gemini: no model name")
	}
	var media genai.MediaResolution
	if opts.MediaResolution != "" {
		var ok bool
		if media, ok = mediaResolutions[opts.MediaResolution]; !ok {
			return nil, fmt.Errorf("gemini: media resolution %q: want %s, %s or %s (or nothing, to send none)", opts.MediaResolution, MediaLow, MediaMedium, MediaHigh)
		}
	}
	cfg := &genai.ClientConfig{
		APIKey: opts.APIKey,
		HTTPOptions: genai.HTTPOptions{
			BaseURL: opts.BaseURL,
			// One attempt per call: retries belong to the project's middleware.
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)},
		},
	}
	switch opts.Backend {
	case "", BackendGemini:
		cfg.Backend = genai.BackendGeminiAPI
		if opts.Project != "" || opts.Location != "" {
			return nil, errors.New("gemini: project and location are for the vertex backend only")
		}
		if cfg.HTTPOptions.BaseURL == "" {
			cfg.HTTPOptions.BaseURL = DefaultBaseURL
		}
		if cfg.APIKey == "" {
			if opts.BaseURL == "" {
				return nil, errors.New("gemini: no API key (set GEMINI_API_KEY)")
			}
			cfg.APIKey = PlaceholderKey
		}
	case BackendVertex:
		cfg.Backend = genai.BackendVertexAI
		cfg.Project, cfg.Location = opts.Project, opts.Location
		if cfg.APIKey == "" && opts.BaseURL == "" && (opts.Project == "" || opts.Location == "") {
			return nil, errors.New("gemini: the vertex backend needs a project and a location, or an API key")
		}
	default:
		return nil, fmt.Errorf("gemini: unknown backend %q (want %q or %q)", opts.Backend, BackendGemini, BackendVertex)
	}
	// The client is our own copy, so that wrapping its transport leaves the
	// caller's client alone.
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = &probeTransport{next: llm.LimitReplies(next, opts.MaxReplyBytes)}
	cfg.HTTPClient = hc
	if cfg.Backend == genai.BackendVertexAI && cfg.APIKey == "" && opts.HTTPClient == nil && opts.Project != "" {
		if err := cfg.UseDefaultCredentials(); err != nil {
			return nil, fmt.Errorf("gemini: vertex: %w", err)
		}
	}
	name := opts.Name
	if name == "" {
		name = "gemini:" + model
	}
	m := &Model{model: model, name: name, key: cfg.APIKey, gen: opts.GenParams, media: media}
	client, err := genai.NewClient(context.Background(), cfg)
	if err != nil {
		// The SDK's messages may print the whole config, key included.
		return nil, errors.New("gemini: " + m.redact(err.Error()))
	}
	m.client = client
	return m, nil
}

// Name returns Options.Name, or "gemini:" and the model name.
func (m *Model) Name() string { return m.name }

// Generate sends req as one generateContent call; as two when the model
// refuses function-call ids, which it is then never sent again.
func (m *Model) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	noIDs := m.noIDs.Load()
	contents, config, err := buildRequest(req, m.gen, m.media, noIDs)
	if err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindBadRequest, Err: fmt.Errorf("gemini: %w", err)}
	}
	p := &probe{}
	start := time.Now()
	resp, err := m.call(withProbe(ctx, p), contents, config)
	if err != nil && !noIDs && idsRefused(err) && hasIDs(contents) {
		// Not a retry of a failure that may pass but the same request in
		// the form this model takes, so it is made here, at once.
		m.noIDs.Store(true)
		if contents, config, err = buildRequest(req, m.gen, m.media, true); err == nil {
			p = &probe{}
			resp, err = m.call(withProbe(ctx, p), contents, config)
		}
	}
	latency := time.Since(start)
	if err != nil {
		return llm.Reply{}, m.mapError(ctx, p, err)
	}
	reply, refusal, err := decodeResponse(resp)
	if err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindMalformed, Status: p.status(), Err: fmt.Errorf("gemini: %w", err)}
	}
	reply.Latency = latency
	if refusal != "" {
		// The reply comes back beside the error, for its tokens and its
		// finish reason.
		return reply, &llm.Error{Kind: llm.KindRefused, Err: errors.New("gemini: the model refused: " + m.redact(refusal))}
	}
	return reply, nil
}

// idsRefused reports whether err is the 400 by which a Vertex AI model
// refuses the id field of function calls and responses: `Invalid JSON
// payload received. Unknown name "id" at 'contents[1].parts[0].function_call'`.
func idsRefused(err error) bool {
	var apiErr genai.APIError
	var apiErrPtr *genai.APIError
	if !errors.As(err, &apiErr) {
		if !errors.As(err, &apiErrPtr) || apiErrPtr == nil {
			return false
		}
		apiErr = *apiErrPtr
	}
	return apiErr.Code == http.StatusBadRequest && strings.Contains(apiErr.Message, `Unknown name "id"`)
}

// call runs the SDK, turning a panic while it reads an odd reply into an
// error: bad input must not bring the run down.
func (m *Model) call(ctx context.Context, contents []*genai.Content, config *genai.GenerateContentConfig) (resp *genai.GenerateContentResponse, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = nil, &sdkPanic{fmt.Sprint(r)}
		}
	}()
	return m.client.Models.GenerateContent(ctx, m.model, contents, config)
}

type sdkPanic struct{ msg string }

func (e *sdkPanic) Error() string { return "reading the reply: " + e.msg }

// redact removes the API key from s.
func (m *Model) redact(s string) string {
	if m.key != "" && m.key != PlaceholderKey {
		s = strings.ReplaceAll(s, m.key, "[redacted]")
	}
	return s
}
