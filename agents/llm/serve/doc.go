// Package serve puts an llm.Model behind an OpenAI-compatible HTTP API, so
// that any OpenAI client (including this project's own openai backend) can
// call the simulated model, a cassette or any other backend.
//
// It serves
//
//	POST /v1/chat/completions   one non-streaming chat completion
//	GET  /v1/models             the one model, named by Model.Name
//	GET  /v1/models/{id}        that model
//
// and, as GeminiHandler documents, the Gemini REST API's
// POST /v1beta/models/{model}:generateContent (also under /v1/), so that
// one server answers both the openai and the gemini backends.
//
// A chat request is decoded into an llm.Request as the exact inverse of what
// agents/llm/openai sends: system (and developer) messages become
// Request.System, joined by a blank line if there are several; user,
// assistant and tool messages become Messages with their text, "name",
// tool calls (arguments kept as raw bytes, even if not JSON) and
// tool_call_id; function tools become Tools with their "parameters" as raw
// JSON; temperature, seed, max_completion_tokens (or max_tokens) and a
// json_schema response_format fill the rest. A missing temperature is 1,
// OpenAI's default. A "json_object" response format asks for
// {"type":"object"}. The request's "model" is not checked: the handler
// serves one model whatever the client names. Fields the model layer has no
// place for (tool_choice, top_p, stop, user, …) are ignored.
//
// Images: a user message's image_url parts become the message's Images,
// shown after the text parts before them (a text part after an image
// starts another user message, so that their order is kept). The URL must
// be a base64 data URL, data:image/png;base64,… or data:image/jpeg;base64,…
// (what agents/llm/openai sends); its "detail" is ignored. An image is
// read back as an llm.Image whose MIME is the data URL's, whose Data
// returns the decoded bytes, whose Width and Height are read from the
// image's header with image.DecodeConfig (PNG and JPEG; the pixels are not
// decoded), and whose Digest, for want of any other name on the server
// (the client's digest does not travel), is the first DigestDigits hex
// digits of the SHA-256 of its bytes. The server never fetches anything:
// an http(s) URL is a 400, as are a malformed data URL, a payload that is
// not base64, bytes that are no PNG or JPEG image (or not of the type
// stated), another image type, and an image in a message that is not the
// user's; each names the message and the part, such as
// "messages[1].content[2].image_url.url", and says what is wrong.
//
// One extension field is read: "ambibench_context" (llm.ContextField), the
// call context that ambibench's openai backend adds when its spec says
// "?context=1", decoded into Request.Context so that the simulated model
// behind serve-sim answers ambibench's workflows as it does in process;
// its "play" (llm.Play: the repeat, the perception noise) goes back into
// the context of the model's Generate (llm.WithPlay) and out of
// Request.Context, as if the call had been made in process. A
// client that does not send it (any plain OpenAI client) gets the
// simulated model's answer to a request without a context. The field is
// strict: unknown keys or another version are a 400 naming it.
//
// A body that cannot be read gets a 400 in OpenAI's error shape naming the
// field, such as "messages[2].role". Model failures map back to statuses by
// their llm.ErrorKind: rate limited 429 (with Retry-After), bad request 400,
// auth 401, server 500, timeout 504, malformed reply 502; an llm.Error that
// carries an HTTP status of its own kind keeps it (a 503 stays a 503).
package serve
