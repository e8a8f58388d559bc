package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/ambibench/ambibench/agents/llm"
)

// DefaultBaseURL is the API the backend talks to when Options.BaseURL is
// empty.
const DefaultBaseURL = "https://api.openai.com/v1/"

// PlaceholderKey is sent when a BaseURL is set but no key is given: local
// servers such as Ollama need none, but the header must hold something.
const PlaceholderKey = "unused"

// Image detail levels (Options.ImageDetail): how closely an OpenAI vision
// model looks at an image, and so what it costs.
const (
	DetailLow  = "low"
	DetailHigh = "high"
	DetailAuto = "auto"
)

// Options configure a Model. The caller reads them from the environment
// (OPENAI_API_KEY, OPENAI_BASE_URL); the backend sets key and base URL
// itself, so the SDK's own reading of those two variables has no effect.
// (The SDK still adds headers from OPENAI_ORG_ID, OPENAI_PROJECT_ID and
// OPENAI_CUSTOM_HEADERS if they are set.)
type Options struct {
	// APIKey is sent as a bearer token. It may be empty when BaseURL is set.
	APIKey string
	// BaseURL is the API root, such as "http://localhost:11434/v1"; empty
	// means DefaultBaseURL.
	BaseURL string
	// HTTPClient, if set, carries the requests (and its Timeout applies).
	HTTPClient *http.Client
	// GenParams are the generation settings of the model spec.
	GenParams llm.GenParams
	// MaxReplyBytes caps the body of one reply (0: llm.DefaultMaxReplyBytes);
	// a longer one fails as llm.KindTooLarge, having cost at most that.
	MaxReplyBytes int64
	// Name, if set, is what Name returns: the whole model spec, options
	// included, so that records and cassette keys tell settings apart.
	// Empty means "openai:" and the model name.
	Name string
	// SendContext adds each request's call context (llm.Request.Context)
	// to the body as the extension field llm.ContextField, for ambibench's
	// own serve-sim, which answers from it. It is for serve-sim only: a
	// real provider has no use for the context (a real model reads the
	// prompt), would bill or refuse the unknown field, and must never see
	// it, so it is off unless the model spec says "?context=1".
	SendContext bool
	// ImageDetail, if set, is sent as the "detail" of every image:
	// DetailLow, DetailHigh or DetailAuto. Empty sends none, so that the
	// server's default applies (OpenAI's is auto). The model spec
	// "openai:MODEL?detail=low" sets it.
	ImageDetail string
}

// Model is an OpenAI chat completions model. It is safe for concurrent use.
type Model struct {
	model  string
	name   string
	key    string
	gen    llm.GenParams
	client oa.Client
	// legacyMaxTokens sends MaxOutputTokens as "max_tokens" rather than
	// "max_completion_tokens" (see the package comment).
	legacyMaxTokens bool
	sendContext     bool
	imageDetail     string
}

var _ llm.Model = (*Model)(nil)

// New returns the model named model at the server opts describe.
func New(model string, opts Options) (*Model, error) {
	if model == "" {
		return nil, errors.New("openai: no model name")
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: base URL %q: want an http or https URL such as %q", base, DefaultBaseURL)
	}
	switch opts.ImageDetail {
	case "", DetailLow, DetailHigh, DetailAuto:
	default:
		return nil, fmt.Errorf("openai: image detail %q: want %s, %s or %s (or nothing, to send none)", opts.ImageDetail, DetailLow, DetailHigh, DetailAuto)
	}
	key := opts.APIKey
	if key == "" {
		if opts.BaseURL == "" {
			return nil, errors.New("openai: no API key (set OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)")
		}
		key = PlaceholderKey
	}
	copts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithAPIKey(key),
		// Retries belong to the project's middleware: one Generate, one attempt.
		option.WithMaxRetries(0),
	}
	// The client is our own copy, so that limiting its replies leaves the
	// caller's client alone.
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient
	}
	hc.Transport = llm.LimitReplies(hc.Transport, opts.MaxReplyBytes)
	copts = append(copts, option.WithHTTPClient(hc))
	name := opts.Name
	if name == "" {
		name = "openai:" + model
	}
	return &Model{
		model:           model,
		name:            name,
		key:             key,
		gen:             opts.GenParams,
		client:          oa.NewClient(copts...),
		legacyMaxTokens: u.Hostname() != "api.openai.com",
		sendContext:     opts.SendContext,
		imageDetail:     opts.ImageDetail,
	}, nil
}

// Name returns Options.Name, or "openai:" and the model name.
func (m *Model) Name() string { return m.name }

// Generate sends req as one chat completion.
func (m *Model) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	params, err := buildParams(ctx, m.model, req, m.gen, m.legacyMaxTokens, m.sendContext, m.imageDetail)
	if err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindBadRequest, Err: fmt.Errorf("openai: %w", err)}
	}
	var (
		body []byte
		resp *http.Response
	)
	start := time.Now()
	_, err = m.client.Chat.Completions.New(ctx, params,
		option.WithResponseInto(&resp),
		option.WithResponseBodyInto(&body))
	latency := time.Since(start)
	if err != nil {
		return llm.Reply{}, m.mapError(ctx, resp, err)
	}
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	reply, refusal, err := decodeReply(body)
	if err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindMalformed, Status: status, Err: fmt.Errorf("openai: %w", err)}
	}
	reply.Latency = latency
	if refusal != "" {
		// The reply comes back beside the error, for its tokens and its
		// finish reason.
		return reply, &llm.Error{Kind: llm.KindRefused, Err: fmt.Errorf("openai: the model refused: %s", refusal)}
	}
	return reply, nil
}
