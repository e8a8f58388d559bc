package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, why string
		header    http.Header
		want      time.Duration
	}{
		{"seconds", "the common form", http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{"fractional seconds", "some servers send decimals", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"http date", "RFC 9110 allows a date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"past date", "a date gone by means no wait", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"milliseconds", "OpenAI's retry-after-ms wins", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
		{"garbage", "an unreadable value is ignored", http.Header{"Retry-After": {"soon"}}, 0},
		{"negative", "a negative wait is ignored", http.Header{"Retry-After": {"-3"}}, 0},
		{"none", "no header, no wait", http.Header{}, 0},
	}
	for _, tc := range tests {
		if got := RetryAfter(tc.header, now); got != tc.want {
			t.Errorf("%s (%s): got %v, want %v", tc.name, tc.why, got, tc.want)
		}
	}
}
