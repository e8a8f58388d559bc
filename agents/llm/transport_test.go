package llm

import (
	"context"
	"errors"
	"net/url"
	"testing"
)

// TestTransportKind: the sorting every backend shares for a failed call
// without an error status; each row says which failure it stands for.
func TestTransportKind(t *testing.T) {
	t.Parallel()
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:1", Err: errors.New("connection refused")}
	for _, tc := range []struct {
		why     string
		ctx     context.Context
		err     error
		replied bool
		want    ErrorKind
	}{
		{"the call's deadline", context.Background(), context.DeadlineExceeded, false, KindTimeout},
		{"the context's deadline, whatever the error says", expired, errors.New("read: closed"), false, KindTimeout},
		{"a cancelled call is no one's failure to retry", context.Background(), context.Canceled, true, KindUnknown},
		{"a reply that came but could not be read", context.Background(), errors.New("unexpected EOF"), true, KindMalformed},
		{"a refused connection is worth another try", context.Background(), refused, false, KindServer},
		{"anything else", context.Background(), errors.New("odd"), false, KindUnknown},
	} {
		if got := TransportKind(tc.ctx, tc.err, tc.replied); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
	e := Redacted("openai: chat completion: [redacted]", context.DeadlineExceeded)
	if !errors.Is(e, context.DeadlineExceeded) || e.Error() != "openai: chat completion: [redacted]" {
		t.Errorf("Redacted: %q does not show its message or unwrap to its cause", e)
	}
}
