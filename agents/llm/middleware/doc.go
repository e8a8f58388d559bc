// Package middleware wraps an [llm.Model] in another that adds one
// concern: retries with backoff ([Retry]), request and token budgets
// ([RateLimit]), a cap on calls in flight ([Limit]), a per-call deadline
// ([Timeout]), usage accounting ([Account]), JSON Lines transcripts
// ([Transcript]) and the keys taken out of replies and errors ([Redact]). Every wrapper keeps the wrapped model's Name, so records
// and cassette keys name the real model whatever wraps it, and every
// wrapper is safe for concurrent use when the wrapped model is.
//
// [Chain] composes wrappers from the inside out: the first wrapper is
// applied to the model first, so the last one is outermost and sees a call
// first. A typical stack for a live backend is
//
//	m = middleware.Chain(backend,
//		middleware.Account,                  // count each successful reply
//		func(m llm.Model) llm.Model { return middleware.Limit(m, 8) },
//		func(m llm.Model) llm.Model { return middleware.Timeout(m, time.Minute) },
//		func(m llm.Model) llm.Model { return middleware.Retry(m, middleware.RetryOptions{}) },
//	)
//
// where the deadline applies to each attempt (so a timed-out attempt is
// retried) and a call waiting out its backoff holds no slot of the limit.
package middleware

import "github.com/ambibench/ambibench/agents/llm"

// wrapper is the common part of every middleware: the model it wraps, whose
// name it keeps.
type wrapper struct{ next llm.Model }

// Name returns the wrapped model's name.
func (w wrapper) Name() string { return w.next.Name() }

// Chain wraps m in each of wrappers in turn: Chain(m, a, b) is b(a(m)), so
// a call passes through b, then a, then reaches m. With no wrappers it
// returns m.
func Chain(m llm.Model, wrappers ...func(llm.Model) llm.Model) llm.Model {
	for _, w := range wrappers {
		m = w(m)
	}
	return m
}
