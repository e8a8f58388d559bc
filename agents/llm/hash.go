package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
)

// Hash is the hash of a request's canonical JSON together with the model
// spec: what cassettes are keyed by and what seeds the simulated model's
// errors. The JSON encoding of a Request is canonical (struct fields in
// declaration order, no maps) once its raw JSON (schemas, tool-call
// arguments) is normalised: valid raw JSON is re-encoded with sorted keys
// and no spaces, as an SDK may re-encode it on the way to a server, and
// raw JSON that is not valid, such as a malformed call echoed back, is
// quoted as a string.
func Hash(model string, req Request) string {
	req = canonical(req)
	data, err := json.Marshal(struct {
		Model   string  `json:"model"`
		Request Request `json:"request"`
	}{model, req})
	if err != nil {
		panic("llm: hashing a canonical request: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

func canonical(req Request) Request {
	// JSON has no NaN or infinity; a request that carries one still hashes,
	// to a value no finite temperature has.
	switch {
	case math.IsNaN(req.Temperature):
		req.Temperature = -math.MaxFloat64
	case math.IsInf(req.Temperature, 1):
		req.Temperature = math.MaxFloat64
	case math.IsInf(req.Temperature, -1):
		req.Temperature = -math.MaxFloat64 / 2
	}
	fix := func(raw json.RawMessage) json.RawMessage {
		if raw == nil {
			return nil
		}
		var v any
		if err := json.Unmarshal(raw, &v); err == nil {
			if norm, err := json.Marshal(v); err == nil {
				return norm
			}
		}
		q, _ := json.Marshal(string(raw))
		return q
	}
	req.ResponseSchema = fix(req.ResponseSchema)
	msgs := make([]Message, len(req.Messages))
	for i, m := range req.Messages {
		if len(m.ToolCalls) > 0 {
			calls := make([]ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.Args = fix(c.Args)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		msgs[i] = m
	}
	req.Messages = msgs
	tools := make([]ToolDecl, len(req.Tools))
	for i, t := range req.Tools {
		t.Schema = fix(t.Schema)
		tools[i] = t
	}
	req.Tools = tools
	return req
}
