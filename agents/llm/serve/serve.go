package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// MaxBodyBytes bounds the size of a request body.
const MaxBodyBytes = 16 << 20

// Handler returns an http.Handler that serves m over the OpenAI chat
// completions API (see the package comment) and, on the paths of the
// Gemini API (anything under /v1beta/, and a POST to
// /v1/models/{model}:generateContent or :streamGenerateContent), as
// GeminiHandler does. Every other request is handled as before.
func Handler(m llm.Model) http.Handler { return &handler{m: m, gemini: GeminiHandler(m)} }

type handler struct {
	m      llm.Model
	gemini http.Handler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isGeminiRoute(r) {
		h.gemini.ServeHTTP(w, r)
		return
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "/v1/chat/completions":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "", "method "+r.Method+" not allowed; use POST")
			return
		}
		h.chat(w, r)
	case path == "/v1/models" || strings.HasPrefix(path, "/v1/models/"):
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", http.MethodGet)
			writeError(w, http.StatusMethodNotAllowed, "", "method "+r.Method+" not allowed; use GET")
			return
		}
		h.models(w, path)
	default:
		writeError(w, http.StatusNotFound, "", "no such endpoint "+strconv.Quote(r.URL.Path)+"; this server has POST /v1/chat/completions and GET /v1/models")
	}
}

type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

func (h *handler) models(w http.ResponseWriter, path string) {
	me := modelObject{ID: h.m.Name(), Object: "model", OwnedBy: "ambibench"}
	if path == "/v1/models" {
		writeJSON(w, http.StatusOK, struct {
			Object string        `json:"object"`
			Data   []modelObject `json:"data"`
		}{"list", []modelObject{me}})
		return
	}
	if id := strings.TrimPrefix(path, "/v1/models/"); id != me.ID {
		writeError(w, http.StatusNotFound, "model", "no model "+strconv.Quote(id)+"; this server has "+strconv.Quote(me.ID))
		return
	}
	writeJSON(w, http.StatusOK, me)
}

func (h *handler) chat(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "", "request body is larger than "+strconv.Itoa(MaxBodyBytes)+" bytes")
			return
		}
		writeError(w, http.StatusBadRequest, "", "reading request body: "+err.Error())
		return
	}
	req, err := DecodeRequest(data)
	if err != nil {
		var fe *FieldError
		param := ""
		if errors.As(err, &fe) {
			param = fe.Field
		}
		writeError(w, http.StatusBadRequest, param, err.Error())
		return
	}
	ctx := r.Context()
	if req.Context != nil && req.Context.Play != nil {
		// The harness's part of the call goes back where it was in the
		// client's process: Go's context, not the call context.
		ctx = llm.WithPlay(ctx, req.Context.Play)
		cc := *req.Context
		cc.Play = nil
		req.Context = &cc
	}
	if err := clientDigests(&req); err != nil {
		writeError(w, http.StatusBadRequest, llm.ContextField+".images", err.Error())
		return
	}
	reply, err := h.m.Generate(ctx, req)
	if err != nil {
		writeModelError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, encodeReply(h.m.Name(), req, reply, time.Now()))
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	defer body.Close()
	return io.ReadAll(body)
}

// statusFor is the HTTP status that reports err, a failure of the model.
func statusFor(err error) int {
	var e *llm.Error
	if !errors.As(err, &e) {
		if llm.KindOf(err) == llm.KindTimeout {
			return http.StatusGatewayTimeout
		}
		return http.StatusInternalServerError
	}
	if e.Status >= 400 && e.Status <= 599 && llm.KindForStatus(e.Status) == e.Kind {
		return e.Status
	}
	switch e.Kind {
	case llm.KindRateLimited:
		return http.StatusTooManyRequests
	case llm.KindBadRequest:
		return http.StatusBadRequest
	case llm.KindAuth:
		return http.StatusUnauthorized
	case llm.KindTimeout:
		return http.StatusGatewayTimeout
	case llm.KindMalformed:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

func writeModelError(w http.ResponseWriter, err error) {
	status := statusFor(err)
	var e *llm.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		secs := int64(math.Ceil(e.RetryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	writeError(w, status, "", err.Error())
}

// errorBody is OpenAI's error shape.
type errorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func errorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusForbidden:
		return "permission_error"
	case status == http.StatusNotFound:
		return "not_found_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status == http.StatusGatewayTimeout || status == http.StatusRequestTimeout:
		return "timeout_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

func writeError(w http.ResponseWriter, status int, param, msg string) {
	var b errorBody
	b.Error.Message = msg
	b.Error.Type = errorType(status)
	if param != "" {
		b.Error.Param = &param
	}
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only replies of our own making are encoded here.
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"message":"encoding the reply failed","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)+1))
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// clientDigests names the request's images as the client did, when its
// call context lists their digests (the openai backend sends them with
// context=1), and takes the list out of the context: the digests the
// bytes were received under (DigestDigits of their SHA-256) are the
// server's own, while the client's, which name what made each image, are
// what the client's request hash and its simulated model read. A list
// that does not match the images one for one is refused.
func clientDigests(req *llm.Request) error {
	if req.Context == nil || req.Context.Images == nil {
		return nil
	}
	digests := req.Context.Images
	n := 0
	for _, m := range req.Messages {
		n += len(m.Images)
	}
	if len(digests) != n {
		return fmt.Errorf("the call context names %d image digests for the %d images the messages show", len(digests), n)
	}
	k := 0
	for i := range req.Messages {
		for j := range req.Messages[i].Images {
			im := req.Messages[i].Images[j]
			im.Digest = digests[k]
			if err := im.Check(); err != nil {
				return fmt.Errorf("image %d: %w", k, err)
			}
			req.Messages[i].Images[j] = im
			k++
		}
	}
	cc := *req.Context
	cc.Images = nil
	req.Context = &cc
	return nil
}
