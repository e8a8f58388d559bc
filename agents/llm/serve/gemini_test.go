package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

const geminiPath = "/v1beta/models/gemini-test:generateContent"

// googleErrorBody is Google's error shape.
type googleErrorBody struct {
	Error struct {
		Code    int              `json:"code"`
		Message string           `json:"message"`
		Status  string           `json:"status"`
		Details []map[string]any `json:"details"`
	} `json:"error"`
}

func postGemini(h http.Handler, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	return rec
}

func decodeGoogleError(t *testing.T, rec *httptest.ResponseRecorder) googleErrorBody {
	t.Helper()
	var e googleErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("error body is not JSON: %v\n%s", err, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("content type %q", ct)
	}
	if e.Error.Code != rec.Code {
		t.Errorf("error code %d in a %d reply", e.Error.Code, rec.Code)
	}
	return e
}

// geminiClient returns package gemini's backend talking to a server that
// runs h.
func geminiClient(t *testing.T, h http.Handler) *gemini.Model {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	m, err := gemini.New("gemini-test", gemini.Options{APIKey: "test-key-0000", BaseURL: srv.URL, GenParams: llm.GenParams{ResponseSchema: true}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// norm makes empty slices nil, so that requests compare by content.
func norm(req llm.Request) llm.Request {
	if len(req.Messages) == 0 {
		req.Messages = nil
	}
	if len(req.Tools) == 0 {
		req.Tools = nil
	}
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		if len(m.ToolCalls) == 0 {
			m.ToolCalls = nil
		}
		msgs[i] = m
	}
	if req.Messages != nil {
		req.Messages = msgs
	}
	return req
}

func dump(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

// handlers are the two ways of serving Gemini: alone, and inside the
// OpenAI handler.
var handlers = []struct {
	name string
	new  func(llm.Model) http.Handler
}{{"GeminiHandler", serve.GeminiHandler}, {"Handler", serve.Handler}}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestGeminiRequestRoundTrip(t *testing.T) {
	user := func(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Text: text} }
	tests := []struct {
		name, why string
		req       llm.Request
		want      *llm.Request // nil: the request itself
	}{
		{name: "plain text", why: "one user turn; temperature 0 is sent and kept",
			req: llm.Request{Messages: []llm.Message{user("Put the red block in a bowl.")}}},
		{name: "conversation", why: "system, tools, a model turn of text and calls, three results in a row grouped in one user turn and split again, a turn of calls only, ids and names kept",
			req: llm.Request{
				System: "You plan for a robot.\n\nBe brief.",
				Messages: []llm.Message{
					user("Put the red block in a bowl."),
					{Role: llm.RoleAssistant, Text: "Looking.", ToolCalls: []llm.ToolCall{
						{ID: "call_0", Name: "retrieve_node", Args: raw(`{"attr_key":"color","attr_val":"red"}`)},
						{ID: "call_1", Name: "retrieve_node", Args: raw(`{"name":"bowl"}`)},
						{ID: "call_2", Name: "get_scene_graph", Args: raw(`{}`)},
					}},
					{Role: llm.RoleTool, ToolCallID: "call_0", Name: "retrieve_node", Text: `["red block 1"]`},
					{Role: llm.RoleTool, ToolCallID: "call_1", Name: "retrieve_node", Text: `["blue bowl 1","green bowl 1"]`},
					{Role: llm.RoleTool, ToolCallID: "call_2", Name: "get_scene_graph", Text: ""},
					user("Go on."),
					{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_3", Name: "pick_and_place", Args: raw(`{"pick":"red block 1","place":"blue bowl 1"}`)}}},
					{Role: llm.RoleTool, ToolCallID: "call_3", Name: "pick_and_place", Text: "done"},
				},
				Tools: []llm.ToolDecl{
					{Name: "retrieve_node", Description: "List node ids by name, or by one attribute (e.g. color & red).", Schema: raw(`{"additionalProperties":false,"properties":{"attr_key":{"type":"string"},"attr_val":{"type":"string"},"name":{"type":"string"}},"type":"object"}`)},
					{Name: "pick_and_place", Description: "Pick <a block> and place it.", Schema: raw(`{"properties":{"pick":{"type":"string"},"place":{"type":"string"}},"required":["pick","place"],"type":"object"}`)},
					{Name: "get_scene_graph"},
				},
				Temperature: 0.2,
			}},
		{name: "args not an object", why: "malformed, array, string, null and number args travel as {\"_raw\": text} and come back as they were; <, > and & survive in args, text and results",
			req: llm.Request{Messages: []llm.Message{
				user("Try <everything> & more."),
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
					{ID: "a", Name: "pick_and_place", Args: raw(`{"pick": "red block 1",`)},
					{ID: "b", Name: "f", Args: raw(`[1, 2]`)},
					{ID: "c", Name: "f", Args: raw(`"x"`)},
					{ID: "d", Name: "f", Args: raw(`null`)},
					{ID: "e", Name: "f", Args: raw(` 42 `)},
					{ID: "f", Name: "f", Args: raw(`{"note":"a <b> & c"}`)},
					{ID: "g", Name: "f", Args: raw(`{"_raw":"{\"x\":1}"}`)},
				}},
				{Role: llm.RoleTool, ToolCallID: "a", Name: "pick_and_place", Text: "error: arguments are not JSON"},
				{Role: llm.RoleTool, ToolCallID: "b", Name: "f", Text: `{"output":"nested"}`},
				user(""),
				{Role: llm.RoleAssistant},
			}}},
		{name: "response schema", why: "the schema goes as responseJsonSchema with application/json and comes back byte for byte",
			req: llm.Request{Messages: []llm.Message{user("Classify.")}, Temperature: 1,
				ResponseSchema: raw(`{"properties":{"label":{"enum":["clear","ambiguous","infeasible"],"type":"string"},"why":{"type":"string"}},"required":["label"],"type":"object"}`)}},
		{name: "sampling", why: "temperature, a 32-bit seed (negative too) and the output limit are kept",
			req: llm.Request{Messages: []llm.Message{user("x")}, Temperature: 0.7, Seed: -12345, MaxOutputTokens: 256}},
		{name: "lost: sample and wide seed", why: "Sample is not sent but moves the seed; a seed beyond 32 bits arrives folded",
			req:  llm.Request{Messages: []llm.Message{user("x")}, Temperature: 1, Seed: 1<<40 | 3, Sample: 4},
			want: &llm.Request{Messages: []llm.Message{user("x")}, Temperature: 1, Seed: 263}},
		{name: "lost: names", why: "user and assistant names are not sent; a tool result without a name gets its call's",
			req: llm.Request{Messages: []llm.Message{
				{Role: llm.RoleUser, Name: "alice", Text: "x"},
				{Role: llm.RoleAssistant, Name: "bot", ToolCalls: []llm.ToolCall{{ID: "c", Name: "f", Args: raw(`{}`)}}},
				{Role: llm.RoleTool, ToolCallID: "c", Text: "ok"},
			}},
			want: &llm.Request{Messages: []llm.Message{
				{Role: llm.RoleUser, Text: "x"},
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "f", Args: raw(`{}`)}}},
				{Role: llm.RoleTool, ToolCallID: "c", Name: "f", Text: "ok"},
			}}},
		{name: "lost: JSON layout", why: "the SDK re-encodes args and schemas: keys sorted, spaces gone, numbers through float64; no args become {}",
			req: llm.Request{
				Messages: []llm.Message{user("x"), {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
					{ID: "a", Name: "f", Args: raw(`{"pick": "red", "n": 1.50}`)},
					{ID: "b", Name: "f"},
					{ID: "c", Name: "f", Args: raw(`  `)},
				}}},
				Tools:          []llm.ToolDecl{{Name: "f", Schema: raw(`{"type": "object", "properties": {}, "additionalProperties": false}`)}},
				ResponseSchema: raw(`{"type":"object","maxProperties":2.0}`),
			},
			want: &llm.Request{
				Messages: []llm.Message{user("x"), {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
					{ID: "a", Name: "f", Args: raw(`{"n":1.5,"pick":"red"}`)},
					{ID: "b", Name: "f", Args: raw(`{}`)},
					{ID: "c", Name: "f", Args: raw(`{}`)},
				}}},
				Tools:          []llm.ToolDecl{{Name: "f", Schema: raw(`{"additionalProperties":false,"properties":{},"type":"object"}`)}},
				ResponseSchema: raw(`{"maxProperties":2,"type":"object"}`),
			}},
	}
	for _, h := range handlers {
		for _, tc := range tests {
			t.Run(h.name+"/"+tc.name, func(t *testing.T) {
				f := &fake{reply: llm.Reply{Text: "ok", FinishReason: llm.FinishStop}}
				m := geminiClient(t, h.new(f))
				if _, err := m.Generate(context.Background(), tc.req); err != nil {
					t.Fatalf("Generate: %v", err)
				}
				if len(f.got) != 1 {
					t.Fatalf("the model got %d requests, want 1", len(f.got))
				}
				want := tc.req
				if tc.want != nil {
					want = *tc.want
				}
				if got := norm(f.got[0]); !reflect.DeepEqual(got, norm(want)) {
					t.Errorf("%s:\nmodel got\n%s\nwant\n%s", tc.why, dump(got), dump(want))
				}
			})
		}
	}
}

func TestGeminiReplyRoundTrip(t *testing.T) {
	tests := []struct {
		name, why string
		reply     llm.Reply
		want      *llm.Reply // nil: the reply itself
	}{
		{name: "text", why: "text, a stop and the token counts",
			reply: llm.Reply{Text: "Which bowl?", FinishReason: llm.FinishStop, InputTokens: 120, OutputTokens: 7}},
		{name: "tool calls", why: "ids, names and object args kept, text beside them; STOP with calls reads as tool calls",
			reply: llm.Reply{Text: "Placing it.", ToolCalls: []llm.ToolCall{
				{ID: "call_4", Name: "pick_and_place", Args: raw(`{"pick":"red block 1","place":"blue <bowl> 1"}`)},
				{ID: "call_5", Name: "done", Args: raw(`{}`)},
			}, FinishReason: llm.FinishToolCalls, InputTokens: 3, OutputTokens: 9}},
		{name: "length", why: "MAX_TOKENS is a length finish",
			reply: llm.Reply{Text: "abc", FinishReason: llm.FinishLength, OutputTokens: 8}},
		{name: "other", why: "OTHER is FinishOther; an empty reply has no parts",
			reply: llm.Reply{FinishReason: llm.FinishOther}},
		{name: "lost: raw args", why: "args that are not one object come back wrapped as {\"_raw\": text}; none come back as {}",
			reply: llm.Reply{ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Args: raw(`{"pick":`)},
				{ID: "b", Name: "f", Args: raw(`[1]`)},
				{ID: "c", Name: "f"},
			}, FinishReason: llm.FinishToolCalls},
			want: &llm.Reply{ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Args: raw(`{"_raw":"{\"pick\":"}`)},
				{ID: "b", Name: "f", Args: raw(`{"_raw":"[1]"}`)},
				{ID: "c", Name: "f", Args: raw(`{}`)},
			}, FinishReason: llm.FinishToolCalls}},
		{name: "lost: ids, layout, reason", why: "a call without id is numbered; args are re-encoded by the backend; an unset reason is derived from the calls",
			reply: llm.Reply{ToolCalls: []llm.ToolCall{{Name: "f", Args: raw(`{ "b": 1.0, "a": 2 }`)}}},
			want:  &llm.Reply{ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "f", Args: raw(`{"a":2,"b":1}`)}}, FinishReason: llm.FinishToolCalls}},
		{name: "lost: stop with calls", why: "Gemini has no tool-calls reason, so FinishStop with calls reads back as FinishToolCalls",
			reply: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "x", Name: "f", Args: raw(`{}`)}}, FinishReason: llm.FinishStop},
			want:  &llm.Reply{ToolCalls: []llm.ToolCall{{ID: "x", Name: "f", Args: raw(`{}`)}}, FinishReason: llm.FinishToolCalls}},
	}
	for _, h := range handlers {
		for _, tc := range tests {
			t.Run(h.name+"/"+tc.name, func(t *testing.T) {
				m := geminiClient(t, h.new(&fake{reply: tc.reply}))
				got, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
				if err != nil {
					t.Fatalf("Generate: %v", err)
				}
				got.Latency = 0
				if got.ProviderFinish == "" {
					t.Error("the finish reason as Gemini said it is lost")
				}
				got.ProviderFinish = "" // serve's own word for it
				want := tc.reply
				if tc.want != nil {
					want = *tc.want
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.why, dump(got), dump(want))
				}
			})
		}
	}
}

// TestGeminiReplyShape checks the JSON itself, for clients other than
// package gemini.
func TestGeminiReplyShape(t *testing.T) {
	f := &fake{reply: llm.Reply{Text: "hi", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "f", Args: raw(`{"x":1}`)}}, FinishReason: llm.FinishToolCalls, InputTokens: 5, OutputTokens: 2}}
	body := `{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`
	rec := postGemini(serve.GeminiHandler(f), geminiPath, body)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	id, _ := got["responseId"].(string)
	want := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{
				map[string]any{"text": "hi"},
				map[string]any{"functionCall": map[string]any{"id": "c1", "name": "f", "args": map[string]any{"x": 1.0}}},
			}},
			"finishReason": "STOP", "index": 0.0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 5.0, "candidatesTokenCount": 2.0, "totalTokenCount": 7.0},
		"modelVersion":  "sim:test",
		"responseId":    id,
	}
	if !reflect.DeepEqual(got, want) || id == "" {
		t.Errorf("reply\n%s\nwant\n%s", dump(got), dump(want))
	}
	again := postGemini(serve.GeminiHandler(f), geminiPath, body)
	if !strings.Contains(again.Body.String(), `"responseId":"`+id+`"`) {
		t.Errorf("the same request got another id: %s", again.Body)
	}
}

func TestGeminiDecodeRequest(t *testing.T) {
	user := []llm.Message{{Role: llm.RoleUser, Text: "x"}}
	tests := []struct {
		name, why string
		body      string
		want      llm.Request
	}{
		{"defaults", "no generationConfig means Gemini's temperature of 1; an unset role is the user's",
			`{"contents":[{"parts":[{"text":"x"}]}]}`,
			llm.Request{Temperature: 1, Messages: user}},
		{"parts", "text parts join; thoughts and signatures are skipped; a text part after results starts a user message",
			`{"contents":[{"role":"model","parts":[{"text":"secret","thought":true},{"text":"a"},{"text":"b"},{"functionCall":{"name":"f"},"thoughtSignature":"c2ln"}]},
			  {"role":"user","parts":[{"text":"p"},{"text":"q"},{"functionResponse":{"id":"1","name":"f","response":{"output":"r"}}},{"text":"s"}]}],
			 "generationConfig":{"temperature":0}}`,
			llm.Request{Messages: []llm.Message{
				{Role: llm.RoleAssistant, Text: "ab", ToolCalls: []llm.ToolCall{{Name: "f", Args: raw(`{}`)}}},
				{Role: llm.RoleUser, Text: "pq"},
				{Role: llm.RoleTool, ToolCallID: "1", Name: "f", Text: "r"},
				{Role: llm.RoleUser, Text: "s"},
			}}},
		{"other responses", "a response other than {output: text} is kept as its JSON, tidied; no response is empty; the legacy role \"function\" is a user turn",
			`{"contents":[{"role":"function","parts":[{"functionResponse":{"name":"f","response":{ "result" : {"ok":true}, "note":"a < b" }}},{"functionResponse":{"name":"g"}},{"functionResponse":{"name":"h","response":{"output":7}}}]}],"generationConfig":{"temperature":0}}`,
			llm.Request{Messages: []llm.Message{
				{Role: llm.RoleTool, Name: "f", Text: `{"result":{"ok":true},"note":"a < b"}`},
				{Role: llm.RoleTool, Name: "g"},
				{Role: llm.RoleTool, Name: "h", Text: `{"output":7}`},
			}}},
		{"tools", "several tools flatten; parameters is taken as given; HTML escapes undone, order kept",
			`{"contents":[{"parts":[{"text":"x"}]}],"tools":[{"functionDeclarations":[{"name":"f","description":"d","parameters":{"type":"OBJECT","properties":{"s":{"type":"STRING"}}}}]},{"functionDeclarations":[{"name":"g","parametersJsonSchema":{"z":"\u003ctag\u003e","a":"\\u003c"}}]},{"googleSearch":null}],"generationConfig":{"temperature":0}}`,
			llm.Request{Messages: user, Tools: []llm.ToolDecl{
				{Name: "f", Description: "d", Schema: raw(`{"type":"OBJECT","properties":{"s":{"type":"STRING"}}}`)},
				{Name: "g", Schema: raw(`{"z":"<tag>","a":"\\u003c"}`)},
			}}},
		{"json mode", "application/json without a schema asks for any JSON",
			`{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"application/json","temperature":0.5,"candidateCount":1,"topP":0.9}}`,
			llm.Request{Messages: user, Temperature: 0.5, ResponseSchema: raw(`{}`)}},
		{"response schema", "responseSchema (OpenAPI) is taken as given, with or without a MIME type",
			`{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseSchema":{"type":"STRING"},"temperature":0}}`,
			llm.Request{Messages: user, ResponseSchema: raw(`{"type":"STRING"}`)}},
		{"raw args", "{\"_raw\": text} unwraps only when package gemini would have wrapped text",
			`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"a","args":{"_raw":"[1]"}}},{"functionCall":{"name":"b","args":{"_raw":"{}"}}},{"functionCall":{"name":"c","args":{"_raw":"   "}}},{"functionCall":{"name":"d","args":{"_raw":1}}},{"functionCall":{"name":"e","args":{"_raw":"x","y":1}}}]}],"generationConfig":{"temperature":0}}`,
			llm.Request{Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{Name: "a", Args: raw(`[1]`)},
				{Name: "b", Args: raw(`{"_raw":"{}"}`)},
				{Name: "c", Args: raw(`{"_raw":"   "}`)},
				{Name: "d", Args: raw(`{"_raw":1}`)},
				{Name: "e", Args: raw(`{"_raw":"x","y":1}`)},
			}}}}},
		{"system", "the system instruction's text parts join, whatever its role",
			`{"systemInstruction":{"parts":[{"text":"a"},{"text":"b"}]},"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"temperature":0}}`,
			llm.Request{System: "ab", Messages: user}},
	}
	for _, tc := range tests {
		got, err := serve.DecodeGeminiRequest([]byte(tc.body))
		if err != nil {
			t.Errorf("%s (%s): %v", tc.name, tc.why, err)
			continue
		}
		if !reflect.DeepEqual(norm(got), norm(tc.want)) {
			t.Errorf("%s (%s):\ngot  %s\nwant %s", tc.name, tc.why, dump(got), dump(tc.want))
		}
	}
}

func TestGeminiBadRequests(t *testing.T) {
	const content = `{"role":"user","parts":[{"text":"hi"}]}`
	tests := []struct {
		name, why string
		body      string
		field     string // the field the error must name; "" for none
		text      string // a piece of the message
	}{
		{"malformed JSON", "a body that is not JSON", `{"contents":[`, "", "request body is not valid JSON"},
		{"not an object", "the body must be an object", `[1]`, "", "request body: expected an object"},
		{"empty body", "nothing sent", ``, "", "not valid JSON"},
		{"no contents", "a request needs a content", `{"generationConfig":{}}`, "contents", "required"},
		{"unknown role", "roles are named, with their index", `{"contents":[` + content + `,` + content + `,{"role":"assistant","parts":[{"text":"x"}]}]}`, "contents[2].role", `unknown role "assistant"`},
		{"content not object", "each content must be an object", `{"contents":["hi"]}`, "contents[0]", "expected an object"},
		{"null content", "a null content is not a turn", `{"contents":[null]}`, "contents[0]", "null"},
		{"no parts", "a content needs a part", `{"contents":[{"role":"user"}]}`, "contents[0].parts", "required"},
		{"part type", "parts are objects", `{"contents":[{"parts":["hi"]}]}`, "contents[0].parts[0]", "expected an object"},
		{"text type", "text is a string", `{"contents":[{"parts":[{"text":5}]}]}`, "contents[0].parts[0].text", "expected a string"},
		{"file data", "only text, image and function parts: serve-sim fetches no file", `{"contents":[{"parts":[{"fileData":{"mimeType":"image/png","fileUri":"gs://b/x.png"}}]}]}`, "contents[0].parts[0].fileData", "only text, inlineData, functionCall and functionResponse"},
		{"two things", "a part holds one thing", `{"contents":[{"role":"model","parts":[{"text":"a","functionCall":{"name":"f"}}]}]}`, "contents[0].parts[0]", "not several"},
		{"user calls", "only model turns call functions", `{"contents":[{"role":"user","parts":[{"functionCall":{"name":"f"}}]}]}`, "contents[0].parts[0].functionCall", "only model turns"},
		{"model responses", "only user turns answer calls", `{"contents":[{"role":"model","parts":[{"functionResponse":{"name":"f"}}]}]}`, "contents[0].parts[0].functionResponse", "only user turns"},
		{"call name", "a call needs a name", `{"contents":[{"role":"model","parts":[{"functionCall":{"id":"a","args":{}}}]}]}`, "contents[0].parts[0].functionCall.name", "required"},
		{"args type", "args are an object", `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":"{}"}}]}]}`, "contents[0].parts[0].functionCall.args", "expected an object"},
		{"response name", "a response needs a name", `{"contents":[{"parts":[{"functionResponse":{"id":"a"}}]}]}`, "contents[0].parts[0].functionResponse.name", "required"},
		{"response type", "a response is an object", `{"contents":[{"parts":[{"functionResponse":{"name":"f","response":"ok"}}]}]}`, "contents[0].parts[0].functionResponse.response", "expected an object"},
		{"system parts", "the system instruction is text", `{"contents":[` + content + `],"systemInstruction":{"parts":[{"functionCall":{"name":"f"}}]}}`, "systemInstruction.parts[0]", "text parts only"},
		{"tool kind", "only function declarations", `{"contents":[` + content + `],"tools":[{"googleSearch":{}}]}`, "tools[0].googleSearch", "only functionDeclarations"},
		{"tool not object", "tools are objects", `{"contents":[` + content + `],"tools":[7]}`, "tools[0]", "expected an object"},
		{"declarations type", "declarations are a list", `{"contents":[` + content + `],"tools":[{"functionDeclarations":{}}]}`, "tools[0].functionDeclarations", "expected an array"},
		{"declaration name", "a declaration needs a name", `{"contents":[` + content + `],"tools":[{"functionDeclarations":[{"name":"f"},{"description":"d"}]}]}`, "tools[0].functionDeclarations[1].name", "required"},
		{"two schemas", "parameters or parametersJsonSchema, not both", `{"contents":[` + content + `],"tools":[{"functionDeclarations":[{"name":"f","parameters":{},"parametersJsonSchema":{}}]}]}`, "tools[0].functionDeclarations[0].parameters", "not both"},
		{"temperature type", "config fields name themselves", `{"contents":[` + content + `],"generationConfig":{"temperature":"hot"}}`, "generationConfig.temperature", "expected a number"},
		{"seed fraction", "a seed is an integer", `{"contents":[` + content + `],"generationConfig":{"seed":1.5}}`, "generationConfig.seed", "expected an integer"},
		{"seed range", "a seed is 32 bits", `{"contents":[` + content + `],"generationConfig":{"seed":4294967296}}`, "generationConfig.seed", "32 bits"},
		{"negative max tokens", "a negative limit is meaningless", `{"contents":[` + content + `],"generationConfig":{"maxOutputTokens":-1}}`, "generationConfig.maxOutputTokens", "between 0"},
		{"candidates", "only one candidate", `{"contents":[` + content + `],"generationConfig":{"candidateCount":2}}`, "generationConfig.candidateCount", "only one candidate"},
		{"mime type", "unknown MIME types", `{"contents":[` + content + `],"generationConfig":{"responseMimeType":"text/x.enum"}}`, "generationConfig.responseMimeType", "unsupported MIME type"},
		{"schema with text", "a schema needs JSON output", `{"contents":[` + content + `],"generationConfig":{"responseMimeType":"text/plain","responseJsonSchema":{}}}`, "generationConfig.responseMimeType", "needs \"application/json\""},
		{"two response schemas", "one response schema", `{"contents":[` + content + `],"generationConfig":{"responseSchema":{},"responseJsonSchema":{}}}`, "generationConfig.responseSchema", "not both"},
	}
	for _, h := range handlers {
		for _, tc := range tests {
			t.Run(h.name+"/"+tc.name, func(t *testing.T) {
				m := &fake{}
				rec := postGemini(h.new(m), geminiPath, tc.body)
				if rec.Code != http.StatusBadRequest {
					t.Errorf("status %d, want 400 (%s)", rec.Code, rec.Body)
				}
				e := decodeGoogleError(t, rec)
				if e.Error.Status != "INVALID_ARGUMENT" {
					t.Errorf("status %q", e.Error.Status)
				}
				if !strings.Contains(e.Error.Message, tc.text) || !strings.HasPrefix(e.Error.Message, tc.field) {
					t.Errorf("%s: message %q does not name %q and say %q", tc.why, e.Error.Message, tc.field, tc.text)
				}
				field := ""
				for _, d := range e.Error.Details {
					if v, _ := d["fieldViolations"].([]any); len(v) == 1 {
						fv, _ := v[0].(map[string]any)
						field, _ = fv["field"].(string)
					}
				}
				if field != tc.field {
					t.Errorf("%s: field violation %q, want %q", tc.why, field, tc.field)
				}
				if m.calls() != 0 {
					t.Error("the model was called")
				}
			})
		}
	}
}

func TestGeminiBodyTooLarge(t *testing.T) {
	body := `{"contents":[{"parts":[{"text":"` + strings.Repeat("x", serve.MaxBodyBytes) + `"}]}]}`
	rec := postGemini(serve.GeminiHandler(&fake{}), geminiPath, body)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", rec.Code)
	}
	decodeGoogleError(t, rec)
}

func TestGeminiModelErrors(t *testing.T) {
	tests := []struct {
		name, why  string
		err        error
		status     int
		google     string
		retryAfter string        // the header
		kind       llm.ErrorKind // as package gemini reads it back
		wait       time.Duration // likewise
	}{
		{"rate limited", "429 with the wait rounded up to whole seconds", &llm.Error{Kind: llm.KindRateLimited, RetryAfter: 1500 * time.Millisecond, Err: errors.New("slow down")}, 429, "RESOURCE_EXHAUSTED", "2", llm.KindRateLimited, 2 * time.Second},
		{"rate limited, no wait", "429 without Retry-After", &llm.Error{Kind: llm.KindRateLimited, Err: errors.New("quota")}, 429, "RESOURCE_EXHAUSTED", "", llm.KindRateLimited, 0},
		{"bad request", "400, not retried", &llm.Error{Kind: llm.KindBadRequest, Err: errors.New("bad")}, 400, "INVALID_ARGUMENT", "", llm.KindBadRequest, 0},
		{"auth", "401", &llm.Error{Kind: llm.KindAuth, Err: errors.New("who")}, 401, "UNAUTHENTICATED", "", llm.KindAuth, 0},
		{"forbidden", "an auth error with its own 403 keeps it", &llm.Error{Kind: llm.KindAuth, Status: 403, Err: errors.New("no")}, 403, "PERMISSION_DENIED", "", llm.KindAuth, 0},
		{"server", "500", &llm.Error{Kind: llm.KindServer, Err: errors.New("boom")}, 500, "INTERNAL", "", llm.KindServer, 0},
		{"unavailable", "a server error with its own 503 keeps it", &llm.Error{Kind: llm.KindServer, Status: 503, Err: errors.New("busy")}, 503, "UNAVAILABLE", "", llm.KindServer, 0},
		{"timeout", "a timeout travels as 504 and comes back as a timeout", &llm.Error{Kind: llm.KindTimeout, Err: errors.New("slow")}, 504, "DEADLINE_EXCEEDED", "", llm.KindTimeout, 0},
		{"deadline", "a bare context deadline is a timeout", context.DeadlineExceeded, 504, "DEADLINE_EXCEEDED", "", llm.KindTimeout, 0},
		{"malformed", "the upstream reply was unreadable: 502, a server error to package gemini", &llm.Error{Kind: llm.KindMalformed, Status: 200, Err: errors.New("junk")}, 502, "UNAVAILABLE", "", llm.KindServer, 0},
		{"plain error", "an error that is no llm.Error is a 500", errors.New("plain"), 500, "INTERNAL", "", llm.KindServer, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := serve.GeminiHandler(&fake{err: tc.err})
			rec := postGemini(h, geminiPath, `{"contents":[{"parts":[{"text":"x"}]}]}`)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d", rec.Code, tc.status)
			}
			if got := rec.Header().Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			e := decodeGoogleError(t, rec)
			if e.Error.Status != tc.google || e.Error.Message != tc.err.Error() {
				t.Errorf("error %+v, want status %q and message %q", e.Error, tc.google, tc.err.Error())
			}

			_, err := geminiClient(t, h).Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			var le *llm.Error
			if !errors.As(err, &le) {
				t.Fatalf("through package gemini: %v (%T), want an *llm.Error", err, err)
			}
			if le.Kind != tc.kind || le.Status != tc.status || le.RetryAfter != tc.wait {
				t.Errorf("%s: package gemini read kind %v status %d wait %v, want %v %d %v (%v)", tc.why, le.Kind, le.Status, le.RetryAfter, tc.kind, tc.status, tc.wait, err)
			}
			if !strings.Contains(err.Error(), tc.err.Error()) {
				t.Errorf("the message %q is lost in %q", tc.err.Error(), err.Error())
			}
		})
	}
}

func TestGeminiRetryInfo(t *testing.T) {
	h := serve.GeminiHandler(&fake{err: &llm.Error{Kind: llm.KindRateLimited, RetryAfter: 1500 * time.Millisecond, Err: errors.New("quota")}})
	e := decodeGoogleError(t, postGemini(h, geminiPath, `{"contents":[{"parts":[{"text":"x"}]}]}`))
	want := []map[string]any{{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}}
	if !reflect.DeepEqual(e.Error.Details, want) {
		t.Errorf("details %v, want %v", e.Error.Details, want)
	}
}

func TestGeminiEndpoints(t *testing.T) {
	const body = `{"contents":[{"parts":[{"text":"x"}]}]}`
	tests := []struct {
		name, why    string
		handler      func(llm.Model) http.Handler
		method, path string
		body         string
		status       int
		want         string // a piece of the body
	}{
		{"v1beta", "the usual path", serve.GeminiHandler, "POST", geminiPath, body, 200, `"text":"ok"`},
		{"v1", "the stable path", serve.GeminiHandler, "POST", "/v1/models/gemini-test:generateContent", body, 200, `"text":"ok"`},
		{"model with colon", "a model such as sim:weak is named before the last colon", serve.GeminiHandler, "POST", "/v1beta/models/sim:weak:generateContent", body, 200, `"text":"ok"`},
		{"stream", "streaming is refused, and the client told why", serve.GeminiHandler, "POST", "/v1beta/models/g:streamGenerateContent", body, 400, "streaming is not supported"},
		{"stream via Handler", "likewise under /v1/", serve.Handler, "POST", "/v1/models/g:streamGenerateContent?alt=sse", body, 400, "streaming is not supported"},
		{"get", "generateContent is posted", serve.GeminiHandler, "GET", geminiPath, "", 405, "use POST"},
		{"other method", "countTokens and the like are not served", serve.GeminiHandler, "POST", "/v1beta/models/g:countTokens", body, 404, `method \"countTokens\" is not served`},
		{"other path", "GeminiHandler serves only generate paths", serve.GeminiHandler, "POST", "/v1/chat/completions", body, 404, "no such endpoint"},
		{"no model", "a method needs a model", serve.GeminiHandler, "POST", "/v1beta/models/:generateContent", body, 404, "no such endpoint"},
		{"v1beta via Handler", "Handler passes /v1beta/ to Gemini", serve.Handler, "POST", geminiPath, body, 200, `"finishReason":"STOP"`},
		{"v1beta unknown via Handler", "with Google's errors", serve.Handler, "GET", "/v1beta/models", "", 404, `"status":"NOT_FOUND"`},
		{"openai chat via Handler", "OpenAI paths are untouched", serve.Handler, "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, 200, `"object":"chat.completion"`},
		{"openai model via Handler", "GET /v1/models/{id} stays OpenAI's, colons and all", serve.Handler, "GET", "/v1/models/sim:test", "", 200, `"id":"sim:test"`},
		{"openai model lookalike", "a GET of a Gemini-looking model path is still an OpenAI model lookup", serve.Handler, "GET", "/v1/models/g:generateContent", "", 404, `"type":"not_found_error"`},
	}
	for _, tc := range tests {
		srv := httptest.NewServer(tc.handler(&fake{reply: llm.Reply{Text: "ok", FinishReason: llm.FinishStop}}))
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got json.RawMessage
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
			t.Errorf("%s: body is not JSON: %v", tc.name, err)
		}
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(got), tc.want) {
			t.Errorf("%s (%s): %d %s, want %d with %s", tc.name, tc.why, resp.StatusCode, got, tc.status, tc.want)
		}
	}
}

// FuzzGeminiHandler: whatever the body, the Gemini handler answers 200 or
// 400 with a JSON body, 200 exactly when DecodeGeminiRequest takes the
// body, and never panics; images are checked as in FuzzHandler.
func FuzzGeminiHandler(f *testing.F) {
	for _, s := range []string{
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
		`{"systemInstruction":{"role":"user","parts":[{"text":"s"}]},"contents":[{"role":"user","parts":[{}]},{"role":"model","parts":[{"text":"a"},{"functionCall":{"id":"c","name":"f","args":{"_raw":"{oops"}},"thoughtSignature":"c2tpcA=="}]},{"role":"user","parts":[{"functionResponse":{"id":"c","name":"f","response":{"output":"r"}}},{"functionResponse":{"name":"f","response":{"x":[1]}}}]}],"tools":[{"functionDeclarations":[{"name":"f","parametersJsonSchema":{"type":"object"}}]}],"generationConfig":{"temperature":0.3,"seed":5,"maxOutputTokens":9,"responseMimeType":"application/json","responseJsonSchema":{"type":"object"}}}`,
		`{"contents":[{"role":"robot","parts":[{"text":"x"}]}]}`, `{"contents":[{"parts":[{"inlineData":{}}]}]}`,
		`{"contents":[null],"tools":[null]}`, `{"contents":[{"parts":[null]}]}`, `{"tools":[{"functionDeclarations":[null]}]}`,
		`{"contents":[{"parts":[{"text":"\u003c"}]}],"generationConfig":{"seed":1e99}}`, `[]`, `null`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	_, gem := imageFuzzSeeds()
	for _, s := range gem {
		f.Add([]byte(s))
	}
	h := serve.GeminiHandler(&fake{reply: llm.Reply{Text: "ok\xff", ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: raw("{\xff")}, {Name: "g", Args: raw(`{"x":1}`)}}, FinishReason: llm.FinishToolCalls}})
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := postGemini(h, geminiPath, string(body))
		if rec.Code != 200 && rec.Code != 400 {
			t.Errorf("status %d", rec.Code)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Errorf("body is not JSON: %q", rec.Body)
		}
		req, err := serve.DecodeGeminiRequest(body)
		if (rec.Code == 200) != (err == nil) {
			t.Errorf("status %d, but DecodeGeminiRequest says %v", rec.Code, err)
		}
		if err == nil {
			checkImages(t, req)
		}
		if err != nil {
			var fe *serve.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("error %v (%T) is no *FieldError", err, err)
			}
		}
	})
}

// Package gemini's backend, pointed at a server running Handler, talks to
// the simulated model (or any llm.Model) in Gemini's own API.
func ExampleGeminiHandler() {
	m := &fake{reply: llm.Reply{Text: "Which bowl?", FinishReason: llm.FinishStop, InputTokens: 7, OutputTokens: 3}}
	srv := httptest.NewServer(serve.Handler(m))
	defer srv.Close()

	client, err := gemini.New("sim", gemini.Options{BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	reply, err := client.Generate(context.Background(), llm.Request{
		System:   "You plan for a robot.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Put the block in the bowl."}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Text, reply.FinishReason, reply.InputTokens+reply.OutputTokens)
	fmt.Printf("%q %q\n", m.got[0].System, m.got[0].Messages[0].Text)
	// Output:
	// Which bowl? stop 10
	// "You plan for a robot." "Put the block in the bowl."
}
