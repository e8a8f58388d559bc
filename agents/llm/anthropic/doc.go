// Package anthropic is the llm.Model backend for Anthropic's Claude models,
// over the Messages API (POST /v1/messages), through
// github.com/anthropics/anthropic-sdk-go/v2. The SDK speaks API version
// 2026-10-21. Its retries are off, and so is everything it would read from
// the environment or the disk: one Generate is exactly one HTTP attempt,
// retrying is the job of the project's middleware, and the key and the
// endpoint are what Options say.
//
// How an llm.Request is sent:
//
//   - System becomes the "system" field, one text block (none if empty).
//   - A user turn is a "user" message: a text block, when the turn has
//     text, then one base64 image block per image, in order (source type
//     base64, the image's MIME type, its bytes). The bytes are made when
//     the request is built; an image whose bytes cannot be made fails the
//     request, naming the image's digest. Images go on user turns only.
//   - An assistant turn is an "assistant" message: its text block, when it
//     has text, then one tool_use block per call with the call's id, name
//     and arguments. Arguments that are a JSON object go as they are
//     (compacted); none go as {}; anything else (a malformed call echoed
//     back) goes as {"_raw": "<the text>"}, since the API takes only an
//     object.
//   - Tool turns become tool_result blocks with the call's id and the
//     turn's text (no content block when the text is empty). Consecutive
//     tool turns share one "user" message, as the API requires the results
//     of one turn's calls to come back together. Message.Name has no field
//     in the API and is not sent; neither is a user turn's.
//   - The API refuses empty content, so a user turn with neither text nor
//     images, an assistant turn with neither text nor calls, a call
//     without an id, and a tool turn without a call id fail the request
//     before anything is sent, naming the message.
//   - Tools become client tools {"name", "description", "input_schema"}
//     with the schema compacted (key order and escapes kept); a tool
//     declared without a schema gets {"type":"object"}.
//   - max_tokens, which the API requires, is the limit of the request and
//     of the spec (llm.GenParams.MaxTokensFor), else DefaultMaxTokens
//     (4096). A limit so large that the SDK would insist on streaming (more
//     than ten minutes of output, by its own estimate) fails the request
//     as a bad request, before anything is sent.
//   - ResponseSchema, only when GenParams.ResponseSchema is on, becomes
//     output_config.format {"type":"json_schema","schema":…}. Off, the
//     prompt alone asks for JSON.
//   - No temperature is sent, and no seed: API version 2026-10-21 refuses
//     temperature, top_p and top_k (HTTP 400, even at their defaults), and
//     the Messages API has never had a seed. Request.Temperature,
//     Request.Seed, Request.Sample and the spec's temperature and seed are
//     ignored here: the model samples at its own default, so two samples of
//     one request differ as the model's sampling makes them, and temperature
//     0 is not greedy decoding. (The models package refuses a spec that
//     sets either, rather than ignore it.)
//   - Request.Context, the call context for the simulated model, is never
//     sent.
//
// In a reply, text blocks are joined, each tool_use block becomes a tool
// call with the API's id and its input kept as sent (none becomes {}), and
// blocks of any other type are skipped. Thinking and redacted thinking
// blocks (from a model that thinks by default) are kept when the reply calls
// tools, since the API wants them back, unchanged, beside the tool results:
// they ride in the first call's llm.ToolCall.Signature as a JSON array of
// the blocks, and go back at the head of that assistant turn. A signature
// of any other form (another provider's) is not sent. Input tokens count
// the input, cache-write and cache-read tokens, all of them billed; output
// tokens are the API's output_tokens.
//
// Stop reasons: end_turn and stop_sequence are llm.FinishStop, tool_use
// llm.FinishToolCalls, max_tokens llm.FinishLength, and any other
// (refusal, pause_turn, model_context_window_exceeded) llm.FinishOther;
// the provider's own string is kept in Reply.ProviderFinish. A refusal
// stop is the model's refusal: the reply comes back beside an
// llm.KindRefused error naming its category and explanation.
//
// Failures come back as *llm.Error, whose messages never contain the API
// key or a bearer token. HTTP statuses map as llm.KindForStatus says (529,
// Anthropic's "overloaded", is a server error, retried); a 400 that says
// the prompt is too long for the context is the model's own limit,
// llm.KindRefused. A reply body longer than Options.MaxReplyBytes is
// llm.KindTooLarge, read no further; a body cut short or not a Messages
// reply is llm.KindMalformed.
package anthropic
