package cassette

import (
	"fmt"
	"unicode/utf8"

	"github.com/ambibench/ambibench/agents/llm"
)

// A cassette file is JSON, and JSON text is UTF-8: encoding/json writes
// a byte that is not UTF-8 as U+FFFD, so a request holding one would come
// back hashing to another key (its cassette never found again) and a
// reply holding one would come back with other bytes. No real API sends
// or returns such text; a call that holds some is refused when it is
// recorded or replayed, naming the field, rather than stored wrong.

// badUTF8Request names the first field of req that is not valid UTF-8, and where.
func badUTF8Request(req llm.Request) error {
	check := func(field, s string) error {
		if utf8.ValidString(s) {
			return nil
		}
		return fmt.Errorf("request %s is not valid UTF-8 (byte %d), which a cassette, being JSON, cannot hold", field, firstBad(s))
	}
	if err := check("system", req.System); err != nil {
		return err
	}
	for i, m := range req.Messages {
		for _, f := range [...]struct{ name, s string }{{"role", string(m.Role)}, {"text", m.Text}, {"tool_call_id", m.ToolCallID}, {"name", m.Name}} {
			if err := check(fmt.Sprintf("message %d %s", i, f.name), f.s); err != nil {
				return err
			}
		}
		for j, c := range m.ToolCalls {
			if err := badUTF8Call(fmt.Sprintf("message %d tool call %d", i, j), c, check); err != nil {
				return err
			}
		}
	}
	for i, t := range req.Tools {
		for _, f := range [...]struct{ name, s string }{{"name", t.Name}, {"description", t.Description}, {"parameters", string(t.Schema)}} {
			if err := check(fmt.Sprintf("tool %d %s", i, f.name), f.s); err != nil {
				return err
			}
		}
	}
	return check("response_schema", string(req.ResponseSchema))
}

// badUTF8Reply names the first field of reply that is not valid UTF-8.
func badUTF8Reply(reply llm.Reply) error {
	check := func(field, s string) error {
		if utf8.ValidString(s) {
			return nil
		}
		return fmt.Errorf("reply %s is not valid UTF-8 (byte %d), which a cassette, being JSON, cannot hold", field, firstBad(s))
	}
	for _, f := range [...]struct{ name, s string }{{"text", reply.Text}, {"finish_reason", reply.FinishReason}} {
		if err := check(f.name, f.s); err != nil {
			return err
		}
	}
	for i, c := range reply.ToolCalls {
		if err := badUTF8Call(fmt.Sprintf("tool call %d", i), c, check); err != nil {
			return err
		}
	}
	return nil
}

func badUTF8Call(where string, c llm.ToolCall, check func(field, s string) error) error {
	for _, f := range [...]struct{ name, s string }{{"id", c.ID}, {"name", c.Name}, {"args", string(c.Args)}} {
		if err := check(where+" "+f.name, f.s); err != nil {
			return err
		}
	}
	return nil
}

// firstBad is the offset of the first byte of s that is not UTF-8.
func firstBad(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return len(s)
}
