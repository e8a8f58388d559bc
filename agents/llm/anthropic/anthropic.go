package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/ambibench/ambibench/agents/llm"
)

// DefaultBaseURL is the API the backend talks to when Options.BaseURL is
// empty. A base URL is the API's root, without "/v1": the SDK adds
// "v1/messages" to it.
const DefaultBaseURL = "https://api.anthropic.com/"

// PlaceholderKey is sent when a BaseURL is set but no key is given, for a
// local server or a proxy that holds the key itself.
const PlaceholderKey = "unused"

// DefaultMaxTokens is the output-token limit sent when neither the request
// nor the model spec sets one: the Messages API requires a limit on every
// call. 4096 is far above any reply a workflow asks for (a few hundred
// tokens), and every Claude model takes it.
const DefaultMaxTokens = 4096

// Options configure a Model. The caller reads them from the environment
// (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL); the backend reads no environment
// itself, and neither does the SDK: its own defaults (ANTHROPIC_BASE_URL,
// ANTHROPIC_AUTH_TOKEN, ANTHROPIC_PROFILE and the profile files on disk,
// ANTHROPIC_CUSTOM_HEADERS) are switched off.
type Options struct {
	// APIKey is sent as a bearer token. It may be empty when BaseURL is set.
	APIKey string
	// BaseURL is the API root, such as "http://localhost:8080"; empty
	// means DefaultBaseURL.
	BaseURL string
	// HTTPClient, if set, carries the requests (and its Timeout applies).
	HTTPClient *http.Client
	// GenParams are the generation settings of the model spec; of them this
	// backend sends the output-token limit and the response schema (see the
	// package comment).
	GenParams llm.GenParams
	// MaxReplyBytes caps the body of one reply (0: llm.DefaultMaxReplyBytes);
	// a longer one fails as llm.KindTooLarge, having cost at most that.
	MaxReplyBytes int64
	// Name, if set, is what Name returns: the whole model spec, options
	// included, so that records and cassette keys tell settings apart.
	// Empty means "anthropic:" and the model name.
	Name string
}

// Model is a Claude model behind the Messages API. It is safe for
// concurrent use.
type Model struct {
	model  string
	name   string
	key    string
	gen    llm.GenParams
	client sdk.Client
}

var _ llm.Model = (*Model)(nil)

// New returns the model named model at the server opts describe.
func New(model string, opts Options) (*Model, error) {
	if model == "" {
		return nil, errors.New("anthropic: no model name")
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("anthropic: base URL %q: want an http or https URL such as %q", base, DefaultBaseURL)
	}
	key := opts.APIKey
	if key == "" {
		if opts.BaseURL == "" {
			return nil, errors.New("anthropic: no API key (set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL for a local server or proxy)")
		}
		key = PlaceholderKey
	}
	// The client is our own copy, so that limiting its replies leaves the
	// caller's client alone.
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient
	}
	hc.Transport = llm.LimitReplies(hc.Transport, opts.MaxReplyBytes)
	client := sdk.NewClient(
		// Nothing from the environment or the disk: key and endpoint are
		// what the caller gives.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base),
		option.WithAPIKey(key),
		// Retries belong to the project's middleware: one Generate, one attempt.
		option.WithMaxRetries(0),
		option.WithHTTPClient(hc),
	)
	name := opts.Name
	if name == "" {
		name = "anthropic:" + model
	}
	return &Model{model: model, name: name, key: key, gen: opts.GenParams, client: client}, nil
}

// Name returns Options.Name, or "anthropic:" and the model name.
func (m *Model) Name() string { return m.name }

// Generate sends req as one Messages API call.
func (m *Model) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	params, err := buildParams(m.model, req, m.gen)
	if err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindBadRequest, Err: fmt.Errorf("anthropic: %w", err)}
	}
	// The SDK refuses, before sending, a call it expects to take more than
	// ten minutes unstreamed (a large max_tokens); asked here, the refusal
	// is a setting of the spec to change, not a failure of the network.
	if _, err := sdk.CalculateNonStreamingTimeout(int(params.MaxTokens), params.Model, nil); err != nil {
		return llm.Reply{}, &llm.Error{Kind: llm.KindBadRequest,
			Err: fmt.Errorf("anthropic: max_tokens %d: %v; set a smaller max_tokens in the model spec", params.MaxTokens, err)}
	}
	var (
		body []byte
		resp *http.Response
	)
	start := time.Now()
	_, err = m.client.Messages.New(ctx, params,
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
		return llm.Reply{}, &llm.Error{Kind: llm.KindMalformed, Status: status, Err: fmt.Errorf("anthropic: %w", err)}
	}
	reply.Latency = latency
	if refusal != "" {
		// The reply comes back beside the error, for its tokens and its
		// finish reason.
		return reply, &llm.Error{Kind: llm.KindRefused, Err: errors.New("anthropic: the model refused: " + m.redact(refusal))}
	}
	return reply, nil
}
