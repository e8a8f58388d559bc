package llm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"sync"
)

// Hash is the hash of a request together with the model spec: what
// cassettes are keyed by and what seeds the simulated model's errors. Every
// field counts. Raw JSON (schemas, tool-call arguments) is normalised
// first: valid raw JSON is re-encoded with sorted keys and no spaces, as an
// SDK may re-encode it on the way to a server, and raw JSON that is not
// valid, such as a malformed call echoed back, is quoted as a string.
func Hash(model string, req Request) string {
	req = canonical(req)
	// A length-prefixed encoding of every field, in declaration order: as
	// canonical as JSON and several times faster on long prompts.
	h := sha256.New()
	var buf [8]byte
	num := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	str := func(s string) {
		num(uint64(len(s)))
		io.WriteString(h, s)
	}
	str("ambibench-request-v1")
	str(model)
	str(req.System)
	num(uint64(len(req.Messages)))
	for _, m := range req.Messages {
		str(string(m.Role))
		str(m.Text)
		// Signatures count only when a turn carries one, so that the hash
		// of every request without them is what it was before they
		// existed. The flag bit can never be part of a real count, so the
		// two encodings cannot be confused.
		signed := false
		for _, c := range m.ToolCalls {
			signed = signed || len(c.Signature) > 0
		}
		n := uint64(len(m.ToolCalls))
		if signed {
			n |= signedCalls
		}
		num(n)
		for _, c := range m.ToolCalls {
			str(c.ID)
			str(c.Name)
			str(string(c.Args))
			if signed {
				str(string(c.Signature))
			}
		}
		str(m.ToolCallID)
		str(m.Name)
	}
	num(uint64(len(req.Tools)))
	for _, t := range req.Tools {
		str(t.Name)
		str(t.Description)
		str(string(t.Schema))
	}
	num(math.Float64bits(req.Temperature))
	num(uint64(req.Seed))
	num(uint64(int64(req.Sample)))
	num(uint64(int64(req.MaxOutputTokens)))
	str(string(req.ResponseSchema))
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:16])
}

// signedCalls flags, in the count of a turn's tool calls, that the calls'
// signatures follow their arguments.
const signedCalls = 1 << 63

func canonical(req Request) Request {
	fix := func(raw json.RawMessage) json.RawMessage {
		if raw == nil {
			return nil
		}
		return normalized(raw)
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

// normalized re-encodes raw JSON canonically, or quotes it if it is not
// JSON. Tool schemas come again on every call of a workflow, so results
// are kept in a small cache, emptied when full. It is the package's one
// piece of shared mutable state, and a pure memo: a hit returns what a
// miss would compute, so it can change no hash. Without it a planning call
// spends a quarter of its overhead re-encoding the same schemas.
func normalized(raw json.RawMessage) json.RawMessage {
	key := string(raw)
	normMu.Lock()
	norm, ok := normCache[key]
	normMu.Unlock()
	if ok {
		return norm
	}
	var v any
	if err := json.Unmarshal(raw, &v); err == nil {
		norm, err = json.Marshal(v)
	}
	if norm == nil {
		// Quoted, then normalised as the JSON string it now is: Marshal
		// turns invalid UTF-8 into "\ufffd", which reads back (from a
		// cassette file) as U+FFFD and re-encodes as the rune itself, so
		// only the second form is the same after a round trip.
		q, _ := json.Marshal(key)
		var s string
		json.Unmarshal(q, &s)
		norm, _ = json.Marshal(s)
	}
	normMu.Lock()
	if len(normCache) >= normCacheSize {
		clear(normCache)
	}
	normCache[key] = norm
	normMu.Unlock()
	return norm
}

const normCacheSize = 1024

var (
	normMu    sync.Mutex
	normCache = make(map[string]json.RawMessage, normCacheSize)
)
