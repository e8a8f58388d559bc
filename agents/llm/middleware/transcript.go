package middleware

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// TranscriptEntry is one line of a transcript: one call, as [Transcript]
// writes it.
type TranscriptEntry struct {
	// Episode is the call's [llm.EpisodeFrom], "" outside an episode.
	Episode string            `json:"episode"`
	Model   string            `json:"model"`
	Request TranscriptRequest `json:"request"`
	// Reply is the reply of a successful call; Error the error of a
	// failed one, with the Reply too when the model refused (the reply
	// then holds the provider's finish reason).
	Reply        *llm.Reply `json:"reply,omitempty"`
	Error        string     `json:"error,omitempty"`
	InputTokens  int        `json:"input_tokens"`
	OutputTokens int        `json:"output_tokens"`
	// Latency is the reply's latency if it reports one, else the time the
	// call took through Transcript.
	Latency time.Duration `json:"latency_ns"`
}

// TranscriptRequest is a request as a transcript shows it: the tools by
// name only.
type TranscriptRequest struct {
	System          string          `json:"system,omitempty"`
	Messages        []llm.Message   `json:"messages"`
	Tools           []string        `json:"tools,omitempty"`
	Temperature     float64         `json:"temperature"`
	Seed            int64           `json:"seed,omitempty"`
	Sample          int             `json:"sample,omitempty"`
	MaxOutputTokens int             `json:"max_output_tokens,omitempty"`
	ResponseSchema  json.RawMessage `json:"response_schema,omitempty"`
}

// Transcript returns next with every call written to w as one JSON line,
// a [TranscriptEntry]. One writer serves every episode (each line names
// its episode), and lines are written whole, one Write each, under a
// mutex, so concurrent calls never interleave. Raw JSON that is not valid
// (a malformed tool call) is written as a JSON string.
//
// Only the request and the reply or error are written, and these hold no
// credentials ([llm.Error] messages never do). A failure to write the line
// fails the call, with the reply returned beside the error, so a transcript
// never silently loses a call.
func Transcript(next llm.Model, w io.Writer) llm.Model {
	return &transcript{wrapper: wrapper{next}, w: w}
}

// TranscriptImages is Transcript that also keeps the bytes of every image
// a request shows, each distinct image once, under dir/images (package
// imagefile), before the call is made. The line names an image by its
// digest, type and size.
func TranscriptImages(next llm.Model, w io.Writer, dir string) llm.Model {
	return &transcript{wrapper: wrapper{next}, w: w, imageDir: dir}
}

type transcript struct {
	wrapper
	mu       sync.Mutex
	w        io.Writer
	imageDir string
	stored   sync.Map // digests of the images already kept
}

// keepImages stores the images of req not stored yet.
func (t *transcript) keepImages(req llm.Request) error {
	for i, m := range req.Messages {
		for j, im := range m.Images {
			if _, done := t.stored.Load(im.Digest + im.Ext()); done {
				continue
			}
			if err := imagefile.Store(t.imageDir, im); err != nil {
				return fmt.Errorf("message %d, image %d: %w", i, j, err)
			}
			t.stored.Store(im.Digest+im.Ext(), true)
		}
	}
	return nil
}

// linePool keeps the buffers transcript lines are encoded into; lines of
// a long conversation run to tens of kilobytes.
var linePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledLine = 1 << 20

func (t *transcript) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	// The images are kept before the call, so that one that cannot be
	// kept fails the call before it is paid for.
	if t.imageDir != "" {
		if err := t.keepImages(req); err != nil {
			return llm.Reply{}, &llm.Error{Kind: llm.KindUnknown, Err: fmt.Errorf("keeping the request's images: %w", err)}
		}
	}
	start := time.Now()
	reply, err := t.next.Generate(ctx, req)
	elapsed := time.Since(start)

	e := TranscriptEntry{
		Episode: llm.EpisodeFrom(ctx),
		Model:   t.next.Name(),
		Request: TranscriptRequest{
			System:          req.System,
			Messages:        validMessages(req.Messages),
			Temperature:     req.Temperature,
			Seed:            req.Seed,
			Sample:          req.Sample,
			MaxOutputTokens: req.MaxOutputTokens,
			ResponseSchema:  validRaw(req.ResponseSchema),
		},
		Latency: elapsed,
	}
	for _, tool := range req.Tools {
		e.Request.Tools = append(e.Request.Tools, tool.Name)
	}
	if err != nil {
		e.Error = err.Error()
		if reply.ProviderFinish != "" {
			// A refusal comes with the reply that says why (SAFETY, a
			// blocked prompt, content_filter): keep it beside the error.
			r := reply
			r.ToolCalls = validCalls(r.ToolCalls)
			e.Reply = &r
		}
	} else {
		r := reply
		r.ToolCalls = validCalls(r.ToolCalls)
		e.Reply = &r
		e.InputTokens, e.OutputTokens = reply.InputTokens, reply.OutputTokens
		if reply.Latency != 0 {
			e.Latency = reply.Latency
		}
	}
	var merr error
	buf := linePool.Get().(*bytes.Buffer)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false) // prompts are full of < and >; escaping them costs and helps no reader
	if merr == nil {
		merr = enc.Encode(e) // one line, newline included
	}
	if merr == nil {
		t.mu.Lock()
		_, merr = t.w.Write(buf.Bytes())
		t.mu.Unlock()
	}
	if buf.Cap() <= maxPooledLine {
		linePool.Put(buf)
	}
	if merr != nil {
		// The harness's failure, not the model's: an episode that cannot
		// keep its transcript is not scored.
		merr = &llm.Error{Kind: llm.KindUnknown, Err: fmt.Errorf("writing transcript line: %w", merr)}
		if err != nil {
			return reply, fmt.Errorf("%w (and %w)", err, merr)
		}
		return reply, merr
	}
	return reply, err
}

// validRaw returns raw, or raw quoted as a JSON string if it is not valid
// JSON, so that it can be marshalled.
func validRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil || json.Valid(raw) {
		return raw
	}
	q, _ := json.Marshal(string(raw))
	return q
}

func validCalls(calls []llm.ToolCall) []llm.ToolCall {
	for i, c := range calls {
		if c.Args != nil && !json.Valid(c.Args) {
			out := make([]llm.ToolCall, len(calls))
			copy(out, calls)
			for j := i; j < len(out); j++ {
				out[j].Args = validRaw(out[j].Args)
			}
			return out
		}
	}
	return calls
}

func validMessages(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for i, m := range msgs {
		calls := validCalls(m.ToolCalls)
		if len(calls) > 0 && &calls[0] != &m.ToolCalls[0] {
			if out == nil {
				out = make([]llm.Message, len(msgs))
				copy(out, msgs)
			}
			out[i].ToolCalls = calls
		}
	}
	if out == nil {
		return msgs
	}
	return out
}
