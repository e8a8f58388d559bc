package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/ambibench/ambibench/agents/llm"
)

// mapError turns a failed call into an *llm.Error. resp is the last HTTP
// response, if any arrived. The SDK's own error is never wrapped: it holds
// the request, and so the Authorization header.
func (m *Model) mapError(ctx context.Context, resp *http.Response, err error) error {
	var tooLarge *llm.TooLargeError
	if errors.As(err, &tooLarge) {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		return &llm.Error{Kind: llm.KindTooLarge, Status: status, Err: fmt.Errorf("anthropic: messages: %w", tooLarge)}
	}
	if resp != nil && resp.StatusCode >= 400 {
		msg := apiMessage(resp, err)
		kind := llm.KindForStatus(resp.StatusCode)
		if kind == llm.KindBadRequest && contextRE.MatchString(msg) {
			kind = llm.KindRefused
		}
		return &llm.Error{
			Kind:       kind,
			Status:     resp.StatusCode,
			RetryAfter: llm.RetryAfter(resp.Header, time.Now()),
			Err:        errors.New("anthropic: messages: " + m.redact(msg)),
		}
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		// No response was captured, yet the SDK reports one.
		return &llm.Error{
			Kind:   llm.KindForStatus(apiErr.StatusCode),
			Status: apiErr.StatusCode,
			Err:    errors.New("anthropic: messages: " + m.redact(apiErr.Message)),
		}
	}
	// A reply that came but whose body could not be read to the end is
	// malformed.
	kind := llm.TransportKind(ctx, err, resp != nil || errors.Is(err, io.ErrUnexpectedEOF))
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	return &llm.Error{Kind: kind, Status: status, Err: llm.Redacted("anthropic: messages: "+m.redact(err.Error()), err)}
}

// contextRE matches how the Messages API says a prompt does not fit the
// model's context: "prompt is too long: 215000 tokens > 200000 maximum",
// and "input length and `max_tokens` exceed context limit: …". The first
// is the model's own limit; the second is too, since the output needs
// its room in the same window.
var contextRE = regexp.MustCompile("(?i)prompt is too long|exceed context limit|context (length|window)")

// apiMessage is the server's own account of a failure: the "message" of an
// API error body with its type, or else the start of the body.
func apiMessage(resp *http.Response, err error) string {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		msg := apiErr.Message
		if t := apiErr.Type(); t != "" {
			msg += " (type " + string(t) + ")"
		}
		return msg
	}
	if resp.Body != nil {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		if s := strings.TrimSpace(string(data)); s != "" {
			return s
		}
	}
	return http.StatusText(resp.StatusCode)
}

var bearerRE = regexp.MustCompile(`(?i)(bearer\s+)[^\s"',;]+`)

// redact removes the API key, and anything that looks like a bearer token,
// from s.
func (m *Model) redact(s string) string {
	if m.key != "" && m.key != PlaceholderKey {
		s = strings.ReplaceAll(s, m.key, "[redacted]")
	}
	return bearerRE.ReplaceAllString(s, "${1}[redacted]")
}
