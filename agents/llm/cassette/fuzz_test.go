package cassette

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ambibench/ambibench/agents/llm"
)

// FuzzDecode reads arbitrary bytes as a cassette file: it must never
// panic, and every error must name the file.
func FuzzDecode(f *testing.F) {
	req := llm.Request{
		System:   "sys",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}, {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "t", Args: json.RawMessage(`{bad`)}}}},
		Tools:    []llm.ToolDecl{{Name: "t", Schema: json.RawMessage(`{"type":"object"}`)}},
	}
	k := llm.Hash("m", req)
	good, err := encode("m", k, 0, req, llm.Reply{Text: "x", ToolCalls: []llm.ToolCall{
		{ID: "a", Name: "t", Args: json.RawMessage(`{"a":1}`)}, {ID: "b", Name: "t", Args: json.RawMessage(`{ bad`)},
	}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	if good, err := encode("m", Key("m", req, 2), 2, req, llm.Reply{Text: "y"}); err == nil {
		f.Add(good)
	}
	withImage := req
	withImage.Messages = []llm.Message{{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{Digest: "00112233445566778899aabbccddeeff", MIME: llm.ImagePNG, Width: 640, Height: 480}}}}
	if good, err := encode("m", llm.Hash("m", withImage), 0, withImage, llm.Reply{Text: "a bowl"}); err == nil {
		f.Add(good)
	}
	f.Add([]byte(`{"model":"m","hash":"x","request":{"messages":[{"role":"user","images":[{"digest":"../../x","mime":"image/png","width":1,"height":1}]}]},"reply":{}}`))
	f.Add([]byte(`{"model":"m","hash":"x","request":{"messages":[{"role":"user","images":[{"digest":"00112233445566778899","mime":"image/gif","width":-1}]}]},"reply":{}}`))
	f.Add([]byte(``))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"model":"m","hash":"00","request":{},"reply":{}}`))
	f.Add([]byte(`{"model":"m","hash":"x","request":{"messages":null},"reply":{"tool_calls":[{"args":{"a": 1},"args_text":"x"}]}}`))
	f.Add([]byte(`{"model":"m","hash":"x","request":{"temperature":1e999},"reply":{}}`))
	const name = "testdata/fuzz/some.json"
	f.Fuzz(func(t *testing.T, data []byte) {
		// Against the key and model of a real request, and against the
		// file's own, so the checks past the header are reached too.
		for _, want := range [][2]string{{"m", k}, {"", ""}} {
			reply, err := decode(name, data, want[0], want[1])
			if err != nil {
				if !strings.Contains(err.Error(), name) {
					t.Fatalf("error %q does not name the file", err)
				}
				continue
			}
			// What was read must write back and read the same.
			var f file
			json.Unmarshal(data, &f)
			again, err := encode(f.Model, f.Hash, f.Repeat, f.Request, reply)
			if err != nil {
				t.Fatalf("re-encoding a readable file: %v", err)
			}
			reply2, err := decode(name, again, f.Model, f.Hash)
			if err != nil {
				t.Fatalf("re-reading a re-encoded file: %v\n%s", err, again)
			}
			if !reflect.DeepEqual(reply, reply2) {
				t.Fatalf("reply changed on a round trip:\n%#v\n%#v", reply, reply2)
			}
		}
	})
}

type echo struct{ reply llm.Reply }

func (e echo) Name() string { return "fuzz:echo" }
func (e echo) Generate(context.Context, llm.Request) (llm.Reply, error) {
	return e.reply, nil
}

// FuzzRoundTrip records a reply to a request built from arbitrary text
// and raw JSON, then replays it: the replay must hit, and give the very
// reply recorded. Text that is not UTF-8, which a JSON file cannot hold,
// must instead be refused, by the recorder and the player alike, with an
// error that says so (testdata/fuzz/FuzzRoundTrip holds the inputs that
// once came back under another hash).
func FuzzRoundTrip(f *testing.F) {
	f.Add("put it <there> & \u2028", `{"a": 1}`, `{"pick":"red"}`, `{oops`, 0.5)
	f.Add("", "", "", "", 0.0)
	f.Add("é", `"str"`, ` [1, 2 ] `, "null", 2.0)
	f.Add("", "", `{"id":"\xc0"}`, `{"x":1}`, 0.0) // in the reply's tool-call arguments
	f.Add("", "", "0", "\xc0", 0.0)                // in the request's
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text, schema, args, echoed string, temp float64) {
		req := llm.Request{
			System:      text,
			Messages:    []llm.Message{{Role: llm.RoleAssistant, Text: text, ToolCalls: []llm.ToolCall{{ID: "1", Name: "t", Args: json.RawMessage(echoed)}}}},
			Tools:       []llm.ToolDecl{{Name: "t", Schema: json.RawMessage(schema)}},
			Temperature: temp,
		}
		reply := llm.Reply{Text: text, ToolCalls: []llm.ToolCall{{ID: "x", Name: text, Args: json.RawMessage(args)}}, FinishReason: "stop"}
		validReq := utf8.ValidString(text) && utf8.ValidString(schema) && utf8.ValidString(echoed)
		validReply := utf8.ValidString(text) && utf8.ValidString(args)
		st, err := openStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		rec := &Recorder{dir: dir, st: st, next: echo{reply}}
		got, err := rec.Generate(context.Background(), req)
		play := &Player{dir: dir, model: "fuzz:echo", st: st}
		if !validReq || !validReply {
			if err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
				t.Fatalf("recording text that is not UTF-8: error %v, want one saying so", err)
			}
			_, perr := play.Generate(context.Background(), req)
			var miss *MissError
			switch {
			case !validReq && (perr == nil || !strings.Contains(perr.Error(), "not valid UTF-8")):
				t.Fatalf("replaying a request that is not UTF-8: error %v, want one saying so", perr)
			case validReq && !errors.As(perr, &miss):
				t.Fatalf("replaying a request whose reply was refused: error %v, want a miss (nothing stored)", perr)
			}
			return
		}
		if err != nil {
			if _, kerr := key("fuzz:echo", req, 0); kerr != nil {
				return // NaN or infinite temperature
			}
			t.Fatal(err)
		}
		replayed, err := play.Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if !reflect.DeepEqual(replayed, got) {
			t.Fatalf("replayed\n%#v\nrecorded\n%#v", replayed, got)
		}
		os.Remove(filepath.Join(dir, llm.Hash("fuzz:echo", req)+extZstd))
	})
}

// FuzzUnpack reads arbitrary bytes as a compressed recording in a store
// with a dictionary: it must never panic nor unpack past the size limit,
// and every error must name the file; what unpacks is then read as
// decode reads it, under the same rule.
func FuzzUnpack(f *testing.F) {
	dir := f.TempDir()
	var samples [][]byte
	for i := range 200 {
		req := llm.Request{System: "plan", Messages: []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat(fmt.Sprintf("a red block at (%d, %d), a blue bowl at %d; ", i*7%31, i*13%37, i), 20+i%7)}}}
		data, err := encode("m", llm.Hash("m", req), 0, req, llm.Reply{Text: "ok", FinishReason: llm.FinishStop})
		if err != nil {
			f.Fatal(err)
		}
		samples = append(samples, data)
	}
	dict, id, err := trainDict(samples, historyBytes)
	if err != nil || id == 0 {
		f.Fatalf("training: %v (id %d)", err, id)
	}
	if err := writeNew(dictPath(dir, id), dict); err != nil {
		f.Fatal(err)
	}
	s, err := openStore(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(s.pack(samples[0])) // no dictionary
	if err := s.useDict(id, dict); err != nil {
		f.Fatal(err)
	}
	good := s.pack(samples[1])
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(append(append([]byte{}, good...), good...)) // two frames
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})             // a magic number alone
	f.Add([]byte{0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4})
	f.Add([]byte(""))
	f.Add([]byte(`{"model":"m"}`))
	name := filepath.Join(dir, "some.zst")
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := s.unpack(name, data)
		if err != nil {
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(out) > maxBytes {
			t.Fatalf("unpacked %d bytes, past the limit of %d", len(out), maxBytes)
		}
		if _, err := decode(name, out, "", ""); err != nil && !strings.Contains(err.Error(), name) {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}

// FuzzSeedPick writes arbitrary bytes as a recording into a store with no
// current dictionary, as a recorder does: the seed picked is the same
// each time for the same bytes, and the frame, with the seed it names
// copied into the store, unpacks to the very bytes.
func FuzzSeedPick(f *testing.F) {
	req := llm.Request{System: "You turn a person's instruction into a plan for a robot arm at a table of\nblocks and bowls.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Objects the robot detects:\n- red block 1 (red block)\n- green bowl 1 (green bowl)\nInstruction: Put the red block in the green bowl."}}}
	if data, err := encode("sim", llm.Hash("sim", req), 0, req, llm.Reply{Text: `{"plan":[{"pick":"red block 1","place":"green bowl 1"}]}`, FinishReason: llm.FinishStop}); err == nil {
		f.Add(data)
	}
	f.Add([]byte(""))
	f.Add([]byte("{}"))
	f.Add([]byte(`{"model": "m", "hash": "00", "request": {}, "reply": {}}`))
	f.Add(bytes.Repeat([]byte("a red block at (1, 2); "), 500))
	s, err := openStore(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id, _, sd, err := s.target(data)
		if again, _, _, err2 := s.target(data); err != nil || err2 != nil || again != id {
			t.Fatalf("picked %08x, then %08x, for the same bytes (%v, %v)", id, again, err, err2)
		}
		if (sd == nil) != (id == 0) {
			t.Fatalf("target %08x with seed %v", id, sd)
		}
		frame, fid, dict, err := s.packNew(data)
		if err == nil {
			err = s.haveDict(fid, dict)
		}
		if err != nil {
			t.Fatal(err)
		}
		if fid != id {
			t.Fatalf("packed with %08x, targeted %08x", fid, id)
		}
		out, err := s.unpack(filepath.Join(s.dir, "some.zst"), frame)
		if len(data) == 0 || len(bytes.TrimSpace(data)) == 0 {
			return // refused as an empty recording, which none is
		}
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("unpacked %q (%v), want %q", out, err, data)
		}
	})
}
