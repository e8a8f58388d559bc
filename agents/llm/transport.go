package llm

import (
	"context"
	"errors"
	"net"
	"net/url"
)

// TransportKind sorts a failed call that carries no error status from the
// provider, as every backend does: a deadline (the call's or its
// context's) or a network timeout is KindTimeout; a cancelled call
// KindUnknown; a reply that came but could not be read (replied: the
// backend knows how its SDK says so) KindMalformed; no answer at all, a
// refused or dropped connection (*url.Error), KindServer, worth another
// try; anything else KindUnknown.
func TransportKind(ctx context.Context, err error, replied bool) ErrorKind {
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindUnknown
	case replied:
		return KindMalformed
	case errors.As(err, &urlErr):
		return KindServer
	}
	return KindUnknown
}

// Redacted is an error that shows msg (a backend's message with the key
// taken out) and unwraps to cause, the transport or context error behind
// it, so that errors.Is(err, context.DeadlineExceeded) holds. A backend
// keeps as causes only errors that hold no request headers, never an API
// error that quotes the server.
func Redacted(msg string, cause error) error { return &redactedError{msg, cause} }

type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.cause }
