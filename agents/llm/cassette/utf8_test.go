package cassette

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// Text that is not UTF-8 cannot be kept in a JSON file as itself, so a
// call holding some is refused when recorded, naming where it is, rather
// than stored under a key it would not hash to again.
func TestRecordRefusesTextThatIsNotUTF8(t *testing.T) {
	ok := llm.Reply{Text: "fine", FinishReason: llm.FinishStop}
	for _, tc := range []struct {
		why   string
		req   llm.Request
		reply llm.Reply
		want  string
	}{
		{"a \\xc0 byte in the arguments of a tool call the request replays",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "t", Args: json.RawMessage("{\"a\":\"\xc0\"}")}}}}},
			ok, "request message 0 tool call 0 args is not valid UTF-8 (byte 6)"},
		{"a \\xc0 byte in the arguments of the reply's tool call",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}},
			llm.Reply{ToolCalls: []llm.ToolCall{{ID: "1", Name: "t", Args: json.RawMessage("\"\xc0\"")}}}, "reply tool call 0 args is not valid UTF-8 (byte 1)"},
		{"a system prompt cut inside a rune",
			llm.Request{System: "caf\xc3"}, ok, "request system is not valid UTF-8 (byte 3)"},
	} {
		dir := t.TempDir()
		m, err := Record(dir, echo{tc.reply})
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Generate(context.Background(), tc.req)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.why, err, tc.want)
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "*.*")); len(files) != 0 {
			t.Errorf("%s: stored %v", tc.why, files)
		}
	}
}
