package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrorKind sorts failures by what a caller should do about them.
type ErrorKind int

const (
	KindUnknown     ErrorKind = iota
	KindRateLimited           // 429: wait (Retry-After if given) and retry
	KindServer                // 5xx: retry with backoff
	KindTimeout               // no answer in time: retry with backoff
	KindBadRequest            // 4xx other than 401/403/429: do not retry
	KindAuth                  // 401/403: do not retry
	KindMalformed             // the reply could not be read: retry with backoff
)

var kindNames = map[ErrorKind]string{
	KindUnknown: "unknown", KindRateLimited: "rate limited", KindServer: "server error",
	KindTimeout: "timeout", KindBadRequest: "bad request", KindAuth: "auth", KindMalformed: "malformed reply",
}

func (k ErrorKind) String() string { return kindNames[k] }

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

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %v", e.Kind, e.Status, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Kind, e.Err)
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

// IsInfra reports whether err is a failure of the infrastructure — the
// provider, the network, a timeout, a request the provider rejects, a key
// it refuses — rather than of the model's answer. Such a failure says
// nothing about the agent, so the harness does not score the episode.
func IsInfra(err error) bool {
	if err == nil {
		return false
	}
	switch KindOf(err) {
	case KindRateLimited, KindServer, KindTimeout, KindBadRequest, KindAuth, KindMalformed, KindUnknown:
		return true
	}
	return false
}
