package middleware

import (
	"context"

	"github.com/ambibench/ambibench/agents/llm"
)

// Redact returns next with the secrets taken out of every reply and
// error it returns ([llm.Secrets]), so that a key a server echoes inside
// a reply's text reaches no cassette, transcript, record or message:
// every other wrapper, and the agent, sees the reply redacted. It goes
// innermost, right around the backend. With no secrets it returns next
// itself.
func Redact(next llm.Model, secrets llm.Secrets) llm.Model {
	if secrets.Empty() {
		return next
	}
	return &redact{wrapper{next}, secrets}
}

type redact struct {
	wrapper
	secrets llm.Secrets
}

func (r *redact) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	reply, err := r.next.Generate(ctx, req)
	return r.secrets.Reply(reply), r.secrets.Error(err)
}
