// Package openai is the llm.Model backend for OpenAI's chat completions API
// and any server that speaks it (Ollama, vLLM, llama.cpp, LM Studio, and
// this project's own agents/llm/serve). It uses github.com/openai/openai-go/v3
// with the SDK's retries switched off: retrying is the job of the project's
// middleware, so one Generate is exactly one HTTP attempt.
//
// How an llm.Request is sent:
//
//   - System becomes one leading system message (none if empty).
//   - User and assistant turns carry their text and, if set, their Name as the
//     message's "name". An assistant turn's tool calls go out as function tool
//     calls whose arguments are the call's raw Args, byte for byte.
//   - A user turn that shows images is sent as content parts: a text part
//     when its text is not empty, then one image_url part per image, in
//     order, whose URL is a data URL, data:<MIME>;base64,<bytes> (the form
//     OpenAI, vLLM, llama.cpp's server and Ollama all take). The bytes are
//     made then, by llm.Image.Data; an image whose bytes cannot be made,
//     or whose type or size llm.Image.Check refuses, fails the request
//     (llm.KindBadRequest) naming the message, the image and its digest.
//     Only user turns may show images: an assistant or tool turn with
//     images is refused likewise. Options.ImageDetail, when set ("openai:
//     MODEL?detail=low|high|auto"), goes out as every image's "detail";
//     by default none is sent. A turn without images keeps its plain
//     string content.
//   - A tool turn is a "tool" message with its tool_call_id, and with "name"
//     when Message.Name is set (the field OpenAI's own function-calling
//     examples send; servers that do not know it ignore it).
//   - Tools become function tools; each schema is sent as the function's
//     "parameters" compacted (json.Compact: whitespace removed, nothing else
//     changed: key order and escapes are kept).
//   - Options.GenParams decide the generation fields (see llm.GenParams):
//     by default the request's temperature is always sent (0 is
//     meaningful), and a seed always (the request's, else 0, plus the
//     request's Sample); a spec may fix the temperature, omit it (for
//     reasoning models), omit the seed, or cap the output tokens.
//   - The output-token limit, when positive, goes out as "max_completion_tokens" to
//     api.openai.com (its reasoning models refuse "max_tokens") and as
//     "max_tokens" to any other server, since every OpenAI-compatible server
//     knows "max_tokens" while several ignore "max_completion_tokens".
//   - ResponseSchema, only when GenParams.ResponseSchema is on, becomes
//     response_format {"type":"json_schema", "json_schema":{"name":
//     "response","schema":...}} without "strict", so schemas that strict
//     mode would refuse still work. Off, the prompt alone asks for JSON.
//   - Request.Sample has no field of its own: it moves the seed.
//   - Request.Context, the call context for the simulated model, is not
//     sent, unless Options.SendContext asks for it: then it goes out as the
//     extension field "ambibench_context" (llm.ContextField), which only
//     ambibench's serve-sim reads, with what the harness stated in Go's
//     context for a simulated model (the repeat, the perception noise) in
//     its "play" (llm.PlayFrom), so that serve-sim plays as the model does
//     in process. The model spec "openai:MODEL?context=1" sets it; nothing
//     sets it by default.
//
// A reply's tool-call arguments are kept exactly as the server sent them,
// even when they are not valid JSON; the caller decides what to do with
// them. The finish reason is kept raw in Reply.ProviderFinish. Failures
// come back as *llm.Error, whose messages never contain the API key. The
// model's own refusals are llm.KindRefused: a content_filter finish or a
// refusal message (the reply comes back beside the error), and a 400 that
// says the prompt exceeds the context. A reply body longer than
// Options.MaxReplyBytes is llm.KindTooLarge, read no further.
package openai
