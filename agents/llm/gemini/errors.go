package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"

	"github.com/ambibench/ambibench/agents/llm"
)

// A probe records what the HTTP layer saw of one call: the SDK's errors do
// not carry the response headers (Retry-After), and a 2xx body that is not
// a JSON object is caught here, before the SDK reads it.
type probe struct {
	mu     sync.Mutex
	code   int
	header http.Header
}

func (p *probe) set(code int, h http.Header) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.code, p.header = code, h
}

func (p *probe) status() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.code
}

func (p *probe) headers() http.Header {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.header
}

type probeKey struct{}

func withProbe(ctx context.Context, p *probe) context.Context {
	return context.WithValue(ctx, probeKey{}, p)
}

// probeTransport fills the probe of a request's context.
type probeTransport struct{ next http.RoundTripper }

// errMalformedBody is a 2xx reply whose body is not a JSON object.
var errMalformedBody = errors.New("reply body is not a JSON object (cut short or not JSON)")

func (t *probeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	p, _ := req.Context().Value(probeKey{}).(*probe)
	if err != nil || p == nil {
		return resp, err
	}
	p.set(resp.StatusCode, resp.Header.Clone())
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading reply body: %w", err)
	}
	if !isJSONObject(body) {
		return nil, errMalformedBody
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

func isJSONObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// mapError turns a failed call into an *llm.Error.
func (m *Model) mapError(ctx context.Context, p *probe, err error) error {
	var tooLarge *llm.TooLargeError
	if errors.As(err, &tooLarge) {
		return &llm.Error{Kind: llm.KindTooLarge, Status: p.status(), Err: fmt.Errorf("gemini: generate content: %w", tooLarge)}
	}
	var apiErr genai.APIError
	var apiErrPtr *genai.APIError
	hasAPI := errors.As(err, &apiErr)
	if !hasAPI && errors.As(err, &apiErrPtr) && apiErrPtr != nil {
		apiErr, hasAPI = *apiErrPtr, true
	}
	code := p.status()
	if hasAPI && apiErr.Code >= 400 {
		code = apiErr.Code
	}
	if code >= 400 {
		msg := http.StatusText(code)
		if hasAPI && apiErr.Message != "" {
			msg = apiErr.Message
			if apiErr.Status != "" && !strings.HasPrefix(apiErr.Status, strconv.Itoa(code)) {
				msg += " (" + apiErr.Status + ")"
			}
		}
		wait := llm.RetryAfter(p.headers(), time.Now())
		if wait == 0 && hasAPI {
			wait = retryInfo(apiErr.Details)
		}
		kind := llm.KindForStatus(code)
		if kind == llm.KindBadRequest && contextRE.MatchString(msg) {
			kind = llm.KindRefused
		}
		return &llm.Error{
			Kind:       kind,
			Status:     code,
			RetryAfter: wait,
			Err:        errors.New("gemini: generate content: " + m.redact(msg)),
		}
	}
	// A reply that came but could not be read is malformed.
	var panicked *sdkPanic
	kind := llm.TransportKind(ctx, err, code >= 200 && code <= 299 || errors.Is(err, errMalformedBody) || errors.As(err, &panicked))
	return &llm.Error{Kind: kind, Status: code, Err: llm.Redacted("gemini: generate content: "+m.redact(err.Error()), err)}
}

// contextRE matches how Gemini says a prompt exceeds the model's context:
// "The input token count (1200000) exceeds the maximum number of tokens
// allowed (1048576)."
var contextRE = regexp.MustCompile(`(?i)input token count.*exceeds|exceeds the maximum number of tokens|context (length|window)`)

// retryInfo reads the wait a google.rpc.RetryInfo detail asks for, such as
// {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}.
func retryInfo(details []map[string]any) time.Duration {
	for _, d := range details {
		typ, _ := d["@type"].(string)
		if !strings.HasSuffix(typ, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		if wait, err := time.ParseDuration(s); err == nil && wait > 0 {
			return wait
		}
	}
	return 0
}
