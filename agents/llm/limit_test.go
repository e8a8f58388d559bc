package llm_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestLimitReplies(t *testing.T) {
	tests := []struct {
		name, why     string
		body          string
		contentLength bool
		limit         int64
		wantErr       bool
	}{
		{"under", "a body under the limit is read whole", "hello", true, 10, false},
		{"exact", "a body of exactly the limit is whole, not too large", "0123456789", false, 10, false},
		{"over, streamed", "a chunked body one byte over fails while it is read", "0123456789x", false, 10, true},
		{"over, announced", "a Content-Length over the limit fails before any is read", "0123456789x", true, 10, true},
	}
	for _, tc := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !tc.contentLength {
				w.(http.Flusher).Flush() // chunked: no Content-Length
			}
			io.WriteString(w, tc.body)
		}))
		c := &http.Client{Transport: llm.LimitReplies(nil, tc.limit)}
		var data []byte
		resp, err := c.Get(srv.URL)
		if err == nil {
			data, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		srv.Close()
		var tl *llm.TooLargeError
		if got := errors.As(err, &tl); got != tc.wantErr {
			t.Errorf("%s (%s): error %v, want too large %v", tc.name, tc.why, err, tc.wantErr)
		}
		if !tc.wantErr && string(data) != tc.body {
			t.Errorf("%s (%s): read %q", tc.name, tc.why, data)
		}
		if tc.wantErr && tl != nil && !strings.Contains(err.Error(), "10 bytes") {
			t.Errorf("%s: error %v does not name the limit", tc.name, err)
		}
	}
}
