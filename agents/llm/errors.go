package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrorKind sorts failures by what a caller should do about them, and by
// whose failure they are.
//
// Infrastructure failures ([IsInfra] true: the provider, the network, the
// setup or the cassettes failed, so the episode says nothing about the
// agent and must be re-run, never scored):
//
//   - KindUnknown (an *Error of no known kind, such as a cancelled call),
//   - KindRateLimited, KindServer, KindTimeout (once retries are used up),
//   - KindMalformed (an HTTP reply cut short or not JSON: the transport's
//     fault, not the model's wording),
//   - KindBadRequest (the provider rejects the request as malformed, or a
//     model setting it refuses, such as a temperature),
//   - KindAuth,
//   - KindCassette (a cassette file that cannot be read or written, or a
//     request a replay does not hold).
//
// The agent's own failures ([IsInfra] false: counted as a failed episode,
// with the reason):
//
//   - KindRefused: the model declined within its own limits: the context
//     length exceeded, a safety or recitation block, a blocked prompt, a
//     refusal message;
//   - KindTooLarge: the reply was larger than the limit set for one reply.
type ErrorKind int

const (
	KindUnknown     ErrorKind = iota
	KindRateLimited           // 429: wait (Retry-After if given) and retry
	KindServer                // 5xx or no answer: retry with backoff
	KindTimeout               // no answer in time: retry with backoff
	KindBadRequest            // 4xx other than 401/403/429: do not retry
	KindAuth                  // 401/403: do not retry
	KindMalformed             // the reply could not be read: retry with backoff
	KindRefused               // the model's own limit (context, safety): do not retry
	KindTooLarge              // the reply exceeds the size limit: do not retry
	KindCassette              // a cassette file is corrupt or the request is not on file
)

var kindNames = map[ErrorKind]string{
	KindUnknown: "unknown", KindRateLimited: "rate limited", KindServer: "server error",
	KindTimeout: "timeout", KindBadRequest: "bad request", KindAuth: "auth", KindMalformed: "malformed reply",
	KindRefused: "refused by the model", KindTooLarge: "reply too large", KindCassette: "cassette",
}

func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("kind %d", int(k))
}

// Infra reports whether a failure of this kind is the infrastructure's
// rather than the agent's (see [ErrorKind]).
func (k ErrorKind) Infra() bool {
	switch k {
	case KindRefused, KindTooLarge:
		return false
	}
	return true
}

// Retryable reports whether a failure of this kind may succeed on retry.
func (k ErrorKind) Retryable() bool {
	switch k {
	case KindRateLimited, KindServer, KindTimeout, KindMalformed:
		return true
	}
	return false
}

// Error is a backend failure of a known kind. Its message never holds a
// key or an authorization header.
type Error struct {
	Kind       ErrorKind
	Status     int           // HTTP status, if any
	RetryAfter time.Duration // from a Retry-After header, if any
	Err        error
}

// Error names the kind, the HTTP status if any, and the failure; the kind
// is left out when the failure's message already starts with it (as every
// cassette's does), so that no message stutters.
func (e *Error) Error() string {
	msg := fmt.Sprint(e.Err)
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Kind, e.Status, msg)
	}
	if strings.HasPrefix(msg, e.Kind.String()) {
		return msg
	}
	return e.Kind.String() + ": " + msg
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err, KindTimeout for a context deadline, and
// KindUnknown otherwise.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	return KindUnknown
}

// KindForStatus maps an HTTP status to an error kind.
func KindForStatus(status int) ErrorKind {
	switch {
	case status == 429:
		return KindRateLimited
	case status == 401 || status == 403:
		return KindAuth
	case status == 408 || status == 504:
		return KindTimeout
	case status >= 500:
		return KindServer
	case status >= 400:
		return KindBadRequest
	}
	return KindUnknown
}

// IsInfra reports whether err is an infrastructure failure, so that the
// episode it ended must not be scored but re-run: err holds an *Error of a
// kind whose [ErrorKind.Infra] is true, or the call's context ended
// (cancelled or past its deadline). It is false for nil, for the model's
// own refusals (KindRefused, KindTooLarge), and for errors that hold no
// *Error, which are the agent's own (a reply it could not use, a workflow
// that gave up).
//
// The first *Error in err's chain decides, so a workflow that wraps a
// backend's error keeps its kind.
func IsInfra(err error) bool {
	if err == nil {
		return false
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind.Infra()
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
