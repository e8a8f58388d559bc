package llm

import (
	"fmt"
	"io"
	"net/http"
)

// DefaultMaxReplyBytes is the largest reply body a backend reads when no
// limit is set: far above any chat completion a workflow asks for (a
// few kilobytes), far below what would hurt a run of many episodes.
const DefaultMaxReplyBytes = 4 << 20

// TooLargeError is the failure to read a reply body longer than Limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("reply body longer than the limit of %d bytes", e.Limit)
}

// LimitReplies returns a transport whose response bodies fail with a
// *TooLargeError once more than limit bytes are read (limit <= 0 means
// DefaultMaxReplyBytes), so that an enormous reply costs at most the limit
// in memory. A body that announces a larger Content-Length fails at once,
// unread. Backends wrap their HTTP client's transport in it; their error
// mapping turns the failure into KindTooLarge.
func LimitReplies(next http.RoundTripper, limit int64) http.RoundTripper {
	if limit <= 0 {
		limit = DefaultMaxReplyBytes
	}
	if next == nil {
		next = http.DefaultTransport
	}
	return &limitTransport{next: next, limit: limit}
}

type limitTransport struct {
	next  http.RoundTripper
	limit int64
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if resp.ContentLength > t.limit {
		resp.Body.Close()
		return nil, &TooLargeError{Limit: t.limit}
	}
	resp.Body = &limitedBody{rc: resp.Body, left: t.limit, limit: t.limit}
	return resp, nil
}

// limitedBody reads at most limit bytes of rc and fails, rather than
// ending quietly as io.LimitReader would, when there is more: a reply cut
// at the limit must not pass for a whole one.
type limitedBody struct {
	rc          io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, &TooLargeError{Limit: b.limit}
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }
