package middleware_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

func ExampleChain() {
	// A backend that is overloaded once, then answers.
	backend := scripted(httpErr(503, 0), ok())

	m := middleware.Chain(backend,
		middleware.Account,
		func(m llm.Model) llm.Model { return middleware.Limit(m, 8) },
		func(m llm.Model) llm.Model { return middleware.Timeout(m, time.Minute) },
		func(m llm.Model) llm.Model {
			return middleware.Retry(m, middleware.RetryOptions{
				Sleep:   func(context.Context, time.Duration) error { return nil }, // no real waiting here
				OnRetry: func(attempt int, err error) { fmt.Printf("attempt %d failed: %v\n", attempt, err) },
			})
		},
	)

	var tally llm.Tally
	reply, err := m.Generate(llm.WithTally(context.Background(), &tally), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hello"}},
	})
	fmt.Println(reply.Text, err)
	u := tally.Usage()
	fmt.Println(m.Name(), u.Calls, u.InputTokens, u.OutputTokens)
	// Output:
	// attempt 1 failed: server error (HTTP 503): Service Unavailable
	// ok <nil>
	// fake:scripted 1 10 2
}
