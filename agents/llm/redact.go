package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// RedactedText is what a secret is replaced with.
const RedactedText = "[redacted]"

// MinSecretLen is the shortest value Secrets keeps. A provider's key is
// tens of characters; a shorter value ("x", "EMPTY", "none": what a local
// server is given when it wants no key) is no secret, and replacing it
// wherever it occurs would garble the replies.
const MinSecretLen = 8

// Secrets are the values that nothing a run writes may hold: the API keys
// of the environment. A server may echo its key inside a reply's text (a
// proxy that quotes the request's headers, a model asked to repeat its
// prompt), and a reply is written to cassettes and transcripts and read by
// the agents, whose records and errors may quote it; so the key is taken
// out of each reply and error at the backend, before anything else sees
// them (middleware.Redact).
type Secrets struct {
	values []string // longest first, so that a key holding another is replaced whole
}

// NewSecrets returns the secrets among values: those at least
// MinSecretLen long, each once.
func NewSecrets(values ...string) Secrets {
	var s Secrets
	for _, v := range values {
		if len(v) >= MinSecretLen && !slices.Contains(s.values, v) {
			s.values = append(s.values, v)
		}
	}
	slices.SortStableFunc(s.values, func(a, b string) int { return len(b) - len(a) })
	return s
}

// Empty reports whether there is no secret to take out.
func (s Secrets) Empty() bool { return len(s.values) == 0 }

// In reports whether text holds a secret.
func (s Secrets) In(text string) bool {
	for _, v := range s.values {
		if strings.Contains(text, v) {
			return true
		}
	}
	return false
}

// String returns text with every secret replaced by RedactedText.
func (s Secrets) String(text string) string {
	for _, v := range s.values {
		text = strings.ReplaceAll(text, v, RedactedText)
	}
	return text
}

// JSON returns raw with every secret taken out: as it is written, and
// inside the strings it holds, where an escape (\u0073k-…) may hide one
// from a search of the bytes. Raw JSON that holds a secret only once
// decoded is encoded again, its keys sorted; JSON that is not valid is
// left as it is, but for the secrets as written.
func (s Secrets) JSON(raw json.RawMessage) json.RawMessage {
	if len(s.values) == 0 || len(raw) == 0 {
		return raw
	}
	out := raw
	for _, v := range s.values {
		if bytes.Contains(out, []byte(v)) {
			out = bytes.ReplaceAll(out, []byte(v), []byte(RedactedText))
		}
	}
	if !bytes.Contains(out, []byte(`\`)) {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return out
	}
	v, changed := s.value(v)
	if !changed {
		return out
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return out
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// value takes the secrets out of the strings of a decoded JSON value, its
// object keys included.
func (s Secrets) value(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		if s.In(x) {
			return s.String(x), true
		}
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = s.value(e)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		changed := false
		out := make(map[string]any, len(x))
		for k, e := range x {
			e, c := s.value(e)
			if s.In(k) {
				k, c = s.String(k), true
			}
			out[k] = e
			changed = changed || c
		}
		return out, changed
	}
	return v, false
}

// Reply returns r with the secrets taken out of its text, its tool calls
// (id, name and arguments) and the provider's finish reason. A tool
// call's Signature is left as it is: it is opaque, sent back byte for
// byte, and written only as base64.
func (s Secrets) Reply(r Reply) Reply {
	if len(s.values) == 0 {
		return r
	}
	r.Text = s.String(r.Text)
	r.ProviderFinish = s.String(r.ProviderFinish)
	if len(r.ToolCalls) > 0 {
		calls := slices.Clone(r.ToolCalls)
		for i := range calls {
			calls[i].ID = s.String(calls[i].ID)
			calls[i].Name = s.String(calls[i].Name)
			calls[i].Args = s.JSON(calls[i].Args)
		}
		r.ToolCalls = calls
	}
	return r
}

// Error returns err with the secrets taken out of its message, nil for
// nil and err itself when its message holds none. An *Error keeps its
// kind, status and Retry-After, so that retries and the sorting of
// infrastructure failures are unchanged; the chain behind the message is
// cut, for it may quote the server, and only a context's end is kept
// under it (errors.Is(err, context.DeadlineExceeded) still holds).
func (s Secrets) Error(err error) error {
	if err == nil || !s.In(err.Error()) {
		return err
	}
	var cause error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		cause = context.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		cause = context.Canceled
	}
	if e, ok := err.(*Error); ok {
		c := *e
		c.Err = Redacted(s.String(fmt.Sprint(e.Err)), cause)
		return &c
	}
	msg := s.String(err.Error())
	var e *Error
	if errors.As(err, &e) {
		// Wrapped: the message stays the whole chain's, and the kind
		// readable under it.
		return Redacted(msg, &Error{Kind: e.Kind, Status: e.Status, RetryAfter: e.RetryAfter, Err: Redacted(msg, cause)})
	}
	return Redacted(msg, cause)
}
