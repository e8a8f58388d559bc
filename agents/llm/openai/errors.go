package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	oa "github.com/openai/openai-go/v3"

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
		return &llm.Error{Kind: llm.KindTooLarge, Status: status, Err: fmt.Errorf("openai: chat completion: %w", tooLarge)}
	}
	if resp != nil && resp.StatusCode >= 400 {
		msg := apiMessage(resp, err)
		kind := llm.KindForStatus(resp.StatusCode)
		if kind == llm.KindBadRequest && contextExceeded(err, msg) {
			kind = llm.KindRefused
		}
		return &llm.Error{
			Kind:       kind,
			Status:     resp.StatusCode,
			RetryAfter: llm.RetryAfter(resp.Header, time.Now()),
			Err:        errors.New("openai: chat completion: " + m.redact(msg)),
		}
	}
	var apiErr *oa.Error
	if errors.As(err, &apiErr) {
		// No response was captured, yet the SDK reports one.
		return &llm.Error{
			Kind:   llm.KindForStatus(apiErr.StatusCode),
			Status: apiErr.StatusCode,
			Err:    errors.New("openai: chat completion: " + m.redact(apiErr.Message)),
		}
	}
	// A reply that came but whose body could not be read to the end is
	// malformed.
	kind := llm.TransportKind(ctx, err, resp != nil || errors.Is(err, io.ErrUnexpectedEOF))
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	return &llm.Error{Kind: kind, Status: status, Err: llm.Redacted("openai: chat completion: "+m.redact(err.Error()), err)}
}

// contextRE matches how OpenAI-compatible servers word a prompt longer
// than the model's context: OpenAI and vLLM ("maximum context length is
// 8192 tokens"), llama.cpp ("exceeds the available context size"), LM
// Studio and others ("context length", "context window").
var contextRE = regexp.MustCompile(`(?i)maximum context length|context (length|size|window)|too many tokens`)

// contextExceeded reports whether a rejected request was refused for the
// length of its prompt: the model's own limit, not a malformed request.
func contextExceeded(err error, msg string) bool {
	var apiErr *oa.Error
	if errors.As(err, &apiErr) {
		switch apiErr.Code {
		case "context_length_exceeded", "string_above_max_length":
			return true
		}
		if apiErr.Type == "exceed_context_size_error" {
			return true
		}
	}
	return contextRE.MatchString(msg)
}

// apiMessage is the server's own account of a failure: the "message" of an
// OpenAI error body, or else the start of the body.
func apiMessage(resp *http.Response, err error) string {
	var apiErr *oa.Error
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		msg := apiErr.Message
		if apiErr.Type != "" {
			msg += " (type " + apiErr.Type + ")"
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
