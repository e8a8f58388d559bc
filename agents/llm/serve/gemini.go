package serve

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// Gemini methods, the part of the path after the model's colon.
const (
	geminiGenerate = "generateContent"
	geminiStream   = "streamGenerateContent"
)

// GeminiHandler returns an http.Handler that serves m over the Gemini REST
// API:
//
//	POST /v1beta/models/{model}:generateContent   one non-streaming reply
//	POST /v1/models/{model}:generateContent       the same
//
// The model named in the path is not checked, and neither is the API key.
// :streamGenerateContent is refused with a 400: there is no streaming.
//
// A request body is decoded into an llm.Request as the exact inverse of
// what agents/llm/gemini sends:
//
//   - systemInstruction becomes Request.System (its text parts joined);
//   - a "user" content becomes a user message, its text parts joined, and
//     each functionResponse part a tool message with its id and name; the
//     response {"output": text} gives the text, any other response object
//     its JSON;
//   - an inlineData part of a "user" content is an image of that user
//     message, shown after the text before it (a text part after an image
//     starts another user message). Its mimeType must be image/png or
//     image/jpeg, and its data base64 (standard or URL-safe, padded or
//     not, as protobuf's JSON takes bytes). It becomes an llm.Image as
//     the package comment says for OpenAI's image_url parts: the bytes
//     kept, the size read from the header, the digest the first
//     DigestDigits hex digits of the bytes' SHA-256. Another type, data
//     that is not base64, bytes that are no image of the type stated, and
//     an image in a "model" content or in the system instruction are a
//     400 naming the content and the part, such as
//     "contents[1].parts[2].inlineData.data";
//   - a "model" content becomes one assistant message: its text parts
//     joined, each functionCall a tool call with its id, name and args.
//     Args {"_raw": text}, package gemini's wrapping of arguments that are
//     not a JSON object, become text again; absent args are {}. Thought
//     parts and thought signatures are skipped;
//   - tools[].functionDeclarations become Tools, the schema taken from
//     parametersJsonSchema or, as given, from parameters (Gemini's OpenAPI
//     subset is not translated);
//   - generationConfig gives temperature (1, Gemini's default, when
//     absent), seed, maxOutputTokens and the response schema
//     (responseJsonSchema or responseSchema). A responseMimeType of
//     application/json without a schema asks for {}, any JSON.
//
// Raw JSON that is kept (schemas, args, other function responses) is
// compacted, with Go's escapes of <, > and & undone; member order and
// number text are kept. Fields the model layer has no place for
// (safetySettings, toolConfig, topP, stopSequences, thinkingConfig,
// mediaResolution, …) are ignored; parts of other kinds (files, which this server never fetches,
// and code execution) and tools other than function declarations are
// refused.
//
// What does not survive a trip through package gemini and this handler:
// Request.Sample (never sent); a seed beyond 32 bits (folded by the
// backend); a temperature that float32 does not hold (it arrives as the
// float32's shortest decimal, so 0.7 stays 0.7); the Name of user and
// assistant messages (not sent), while a tool message without Name arrives
// with the name of its call; args and schemas, which the SDK re-encodes
// with sorted keys and numbers through float64 (1.0 becomes 1); empty
// or whitespace-only args, which arrive as {}; and an image's Digest,
// which arrives as the digest of its bytes (its type, size and bytes are
// kept).
//
// A reply is a GenerateContentResponse with one candidate: role "model", a
// text part if there is text, then a functionCall part per tool call with
// its id, name and args (args that are not one JSON object go out as
// {"_raw": text}, none as {}). The finish reason is STOP for FinishStop and
// FinishToolCalls, MAX_TOKENS for FinishLength and OTHER for anything else;
// usageMetadata holds the prompt, candidates and total token counts. Read
// back by package gemini, the reply is the model's own except for Latency,
// for a finish reason that package gemini derives again from whether there
// are tool calls, for tool calls without an id (numbered "call_0", …), and
// for args, as above.
//
// A body that cannot be read gets a 400 in Google's error shape,
// {"error": {"code", "message", "status", "details"}}, whose message and
// google.rpc.BadRequest detail name the field, such as "contents[2].role".
// Model failures map to statuses by their llm.ErrorKind as in Handler,
// with Google's status names: rate limited 429 RESOURCE_EXHAUSTED (with
// Retry-After and a google.rpc.RetryInfo detail), bad request 400
// INVALID_ARGUMENT, auth 401 UNAUTHENTICATED (403 PERMISSION_DENIED),
// server 500 INTERNAL (503 UNAVAILABLE), timeout 504 DEADLINE_EXCEEDED,
// malformed reply 502 UNAVAILABLE. Package gemini reads 502 and 504 back as
// llm.KindServer, as llm.KindForStatus does.
func GeminiHandler(m llm.Model) http.Handler { return &geminiHandler{m: m} }

type geminiHandler struct{ m llm.Model }

func (h *geminiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, method, ok := geminiPath(r.URL.Path)
	if !ok {
		writeGeminiError(w, http.StatusNotFound, "", "no such endpoint "+strconv.Quote(r.URL.Path)+"; this server has POST /v1beta/models/{model}:generateContent")
		return
	}
	switch method {
	case geminiGenerate:
	case geminiStream:
		writeGeminiError(w, http.StatusBadRequest, "", "streaming is not supported; call :generateContent instead of :streamGenerateContent")
		return
	default:
		writeGeminiError(w, http.StatusNotFound, "", "method "+strconv.Quote(method)+" is not served; this server has POST /v1beta/models/{model}:generateContent")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeGeminiError(w, http.StatusMethodNotAllowed, "", "method "+r.Method+" not allowed; use POST")
		return
	}
	data, err := readBody(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeGeminiError(w, http.StatusRequestEntityTooLarge, "", "request body is larger than "+strconv.Itoa(MaxBodyBytes)+" bytes")
			return
		}
		writeGeminiError(w, http.StatusBadRequest, "", "reading request body: "+err.Error())
		return
	}
	req, err := DecodeGeminiRequest(data)
	if err != nil {
		var fe *FieldError
		field := ""
		if errors.As(err, &fe) {
			field = fe.Field
		}
		writeGeminiError(w, http.StatusBadRequest, field, err.Error())
		return
	}
	reply, err := h.m.Generate(r.Context(), req)
	if err != nil {
		writeGeminiModelError(w, err)
		return
	}
	writeGeminiJSON(w, http.StatusOK, encodeGeminiReply(h.m.Name(), req, reply))
}

// geminiPath splits a path of the form /v1beta/models/{model}:{method} (or
// /v1/…). ok is false for any other path.
func geminiPath(path string) (model, method string, ok bool) {
	path = strings.TrimSuffix(path, "/")
	rest, found := strings.CutPrefix(path, "/v1beta/models/")
	if !found {
		if rest, found = strings.CutPrefix(path, "/v1/models/"); !found {
			return "", "", false
		}
	}
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 || i == len(rest)-1 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// isGeminiRoute reports whether Handler passes r to the Gemini handler:
// anything under /v1beta/, and a POST to a generate method under
// /v1/models/ (which the OpenAI API does not have: its model paths are
// read with GET).
func isGeminiRoute(r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, "/v1beta/") {
		return true
	}
	if r.Method != http.MethodPost {
		return false
	}
	_, method, ok := geminiPath(r.URL.Path)
	return ok && (method == geminiGenerate || method == geminiStream)
}

// googleError is Google's error shape.
type googleError struct {
	Error struct {
		Code    int              `json:"code"`
		Message string           `json:"message"`
		Status  string           `json:"status"`
		Details []map[string]any `json:"details,omitempty"`
	} `json:"error"`
}

// googleStatus is the google.rpc.Code name Google's APIs give an HTTP
// status.
func googleStatus(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return "UNIMPLEMENTED"
	case http.StatusConflict:
		return "ABORTED"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusRequestTimeout, http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	if status >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}

func writeGeminiModelError(w http.ResponseWriter, err error) {
	status := statusFor(err)
	var details []map[string]any
	var e *llm.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		secs := int64(math.Ceil(e.RetryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		details = append(details, map[string]any{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": strconv.FormatFloat(e.RetryAfter.Seconds(), 'f', -1, 64) + "s",
		})
	}
	writeGoogleError(w, status, err.Error(), details)
}

// writeGeminiError writes an error in Google's shape; a field at fault is
// named in a google.rpc.BadRequest detail too.
func writeGeminiError(w http.ResponseWriter, status int, field, msg string) {
	var details []map[string]any
	if field != "" {
		details = append(details, map[string]any{
			"@type":           "type.googleapis.com/google.rpc.BadRequest",
			"fieldViolations": []map[string]string{{"field": field, "description": msg}},
		})
	}
	writeGoogleError(w, status, msg, details)
}

func writeGoogleError(w http.ResponseWriter, status int, msg string, details []map[string]any) {
	var b googleError
	b.Error.Code = status
	b.Error.Message = msg
	b.Error.Status = googleStatus(status)
	b.Error.Details = details
	writeGeminiJSON(w, status, b)
}

func writeGeminiJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only replies of our own making are encoded here.
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"code":500,"message":"encoding the reply failed","status":"INTERNAL"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)+1))
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}
