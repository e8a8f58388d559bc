package llm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
	"math"
	"sync"
	"unsafe"
)

// Hash is the hash of a request together with the model spec: what
// cassettes are keyed by, and serve-sim's reply ids. Every field counts,
// every byte of the prompt read, so its cost grows with the prompt: a
// caller that needs only to tell calls apart should not pay it on every
// call (the simulated model seeds its draws from a fixed amount of the
// call instead; see package simmodel). Raw JSON (schemas, tool-call
// arguments) is normalised first: valid raw JSON is re-encoded with
// sorted keys and no spaces, as an SDK may re-encode it on the way to a
// server, and raw JSON that is not valid, such as a malformed call echoed
// back, is quoted as a string.
func Hash(model string, req Request) string {
	// A length-prefixed encoding of every field, in declaration order: as
	// canonical as JSON and several times faster on long prompts. The
	// fields are fed through a pooled scratch buffer (sha256's digest has
	// no WriteString, so each string would otherwise be copied to the
	// heap) and raw JSON is normalised as it is written, without a copy
	// of the request.
	hw := hashers.Get().(*hasher)
	defer hashers.Put(hw)
	hw.h.Reset()
	hw.buf = hw.buf[:0]
	hw.str("ambibench-request-v1")
	hw.str(model)
	hw.str(req.System)
	// Images count, by their digest, type and size, only in a request
	// that has some, so that every request without them hashes as it did
	// before they existed; a flag bit in the count of messages says so.
	images := req.HasImages()
	nm := uint64(len(req.Messages))
	if images {
		nm |= withImages
	}
	hw.num(nm)
	for _, m := range req.Messages {
		hw.str(string(m.Role))
		hw.str(m.Text)
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
		hw.num(n)
		for _, c := range m.ToolCalls {
			hw.str(c.ID)
			hw.str(c.Name)
			hw.raw(c.Args)
			if signed {
				hw.bytes(c.Signature)
			}
		}
		hw.str(m.ToolCallID)
		hw.str(m.Name)
		if images {
			hw.num(uint64(len(m.Images)))
			for _, im := range m.Images {
				hw.str(im.Digest)
				hw.str(im.MIME)
				hw.num(uint64(int64(im.Width)))
				hw.num(uint64(int64(im.Height)))
			}
		}
	}
	hw.num(uint64(len(req.Tools)))
	for _, t := range req.Tools {
		hw.str(t.Name)
		hw.str(t.Description)
		hw.raw(t.Schema)
	}
	temp := req.Temperature
	if req.OmitTemperature {
		temp = 0 // not sent: see the end
	}
	hw.num(math.Float64bits(temp))
	hw.num(uint64(req.Seed))
	hw.num(uint64(int64(req.Sample)))
	hw.num(uint64(int64(req.MaxOutputTokens)))
	hw.raw(req.ResponseSchema)
	if req.OmitTemperature {
		// Only a request that leaves the temperature to the provider
		// writes this, after every other field: every other request
		// hashes as it did before the field existed, and the encoding is
		// length-prefixed, so no request without it ends the same way.
		hw.str("temperature: the provider's default")
	}
	hw.flush()
	var sum [sha256.Size]byte
	return hex.EncodeToString(hw.h.Sum(sum[:0])[:16])
}

// hasher feeds Hash's encoding to SHA-256 through a fixed scratch buffer.
type hasher struct {
	h   hash.Hash
	buf []byte
}

// hashChunk is the scratch buffer's size: long prompts go through it in
// pieces of this many bytes.
const hashChunk = 4096

var hashers = sync.Pool{New: func() any {
	return &hasher{h: sha256.New(), buf: make([]byte, 0, hashChunk)}
}}

func (hw *hasher) flush() {
	hw.h.Write(hw.buf)
	hw.buf = hw.buf[:0]
}

func (hw *hasher) num(v uint64) {
	if len(hw.buf)+8 > hashChunk {
		hw.flush()
	}
	hw.buf = binary.LittleEndian.AppendUint64(hw.buf, v)
}

// str writes s's length, then s.
func (hw *hasher) str(s string) {
	hw.num(uint64(len(s)))
	for len(s) > 0 {
		if len(hw.buf) == hashChunk {
			hw.flush()
		}
		n := min(len(s), hashChunk-len(hw.buf))
		hw.buf = append(hw.buf, s[:n]...)
		s = s[n:]
	}
}

func (hw *hasher) bytes(b []byte) {
	hw.str(unsafe.String(unsafe.SliceData(b), len(b)))
}

// raw writes raw JSON as normalized makes it; nil stays nil (length 0).
func (hw *hasher) raw(raw json.RawMessage) {
	if raw == nil {
		hw.num(0)
		return
	}
	hw.bytes(normalized(raw))
}

// withImages flags, in the count of a request's messages, that each
// message's images follow its other fields.
const withImages = 1 << 63

// signedCalls flags, in the count of a turn's tool calls, that the calls'
// signatures follow their arguments.
const signedCalls = 1 << 63

// normalized re-encodes raw JSON canonically, or quotes it if it is not
// JSON. Tool schemas come again on every call of a workflow, so results
// are kept in a small cache, emptied when full. It is the package's one
// piece of shared mutable state, and a pure memo: a hit returns what a
// miss would compute, so it can change no hash. Without it a planning call
// spends a quarter of its overhead re-encoding the same schemas.
func normalized(raw json.RawMessage) json.RawMessage {
	normMu.Lock()
	norm, ok := normCache[string(raw)] // no copy of raw for the lookup
	normMu.Unlock()
	if ok {
		return norm
	}
	key := string(raw)
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
