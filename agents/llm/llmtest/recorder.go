package llmtest

import (
	"context"
	"slices"
	"sync"

	"github.com/ambibench/ambibench/agents/llm"
)

// Recorder is a model that keeps every request it passes on to Model.
// It is safe for concurrent use, as a run at any concurrency needs.
type Recorder struct {
	llm.Model
	mu   sync.Mutex
	reqs []llm.Request
}

// Generate keeps req and returns what Model replies.
func (r *Recorder) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.Model.Generate(ctx, req)
}

// Requests returns the requests kept so far, in the order they came.
func (r *Recorder) Requests() []llm.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}
