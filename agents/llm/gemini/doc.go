// Package gemini is the llm.Model backend for Google's Gemini models, on the
// Gemini Developer API or on Vertex AI, through google.golang.org/genai. The
// SDK's retries and its automatic continuation are off: one Generate is
// exactly one HTTP attempt, and retrying is the job of the project's
// middleware.
//
// How an llm.Request is sent (generateContent):
//
//   - System becomes the system instruction.
//   - User turns are "user" contents: a text part, then, for a turn that
//     shows images, one inlineData part per image, in order, with the
//     image's MIME type and bytes (made then, by llm.Image.Data); a turn
//     of images alone has no text part. An image whose bytes cannot be
//     made, or whose type or size llm.Image.Check refuses, fails the
//     request (llm.KindBadRequest) naming the message, the image and its
//     digest. Only user turns may show images: an assistant or tool turn
//     with images is refused likewise, naming the message and its role.
//   - Options.MediaResolution ("gemini:MODEL?media_resolution=low|medium|
//     high"), when set, goes out as generationConfig's mediaResolution
//     (MEDIA_RESOLUTION_LOW, _MEDIUM, _HIGH) on every call, whether or
//     not it shows images; by default none is sent.
//   - Assistant turns are "model" contents
//     holding their text and one functionCall part per tool call. Thought
//     signatures (Gemini 3) go back exactly as they came, on the calls
//     that had one (llm.ToolCall.Signature). A model turn none of whose
//     calls has a signature (a history from another model) gets, on its
//     first call, the placeholder Google documents for histories the
//     client did not keep ("skip_thought_signature_validator"), since
//     Gemini 3 refuses unsigned calls. Signatures on text parts are not
//     kept: Google does not require them.
//   - Function calls and responses carry the calls' ids, until a model
//     refuses them (some Vertex AI models answer 400 `Unknown name "id"`):
//     then that call is sent again at once without ids, and so is every
//     later call of this Model.
//   - Tool-call arguments are sent as the JSON object they hold; arguments
//     that are not a JSON object (a malformed call echoed back) are sent as
//     {"_raw": "<the text>"}.
//   - Tool turns are functionResponse parts, {"output": <text>}, with the
//     call's id; consecutive tool turns share one "user" content. A tool
//     turn without Name takes the name of the earlier call with its id.
//   - Tools become function declarations with the schema as
//     parametersJsonSchema, untouched.
//   - Options.GenParams decide the generation fields (see llm.GenParams):
//     by default the request's temperature is always sent, and a seed (the
//     request's, else 0, plus Request.Sample; folded into 32 bits when it
//     does not fit: seed XOR seed>>32); the output-token limit when
//     positive; ResponseSchema, only when GenParams.ResponseSchema is on,
//     as responseJsonSchema with the MIME type application/json.
//
// In a reply, thought parts are skipped, text parts are joined, and each
// functionCall becomes a tool call with the API's id or, when it gives none,
// "call_0", "call_1", … in order. Input tokens are the prompt's
// promptTokenCount, which counts every modality: the image tokens that
// Gemini reports apart (promptTokensDetails, by modality) are a breakdown
// of that total, not added to it. Output tokens count the candidates' and
// the thinking tokens, as both are billed as output. STOP becomes
// FinishToolCalls when the reply calls tools, MAX_TOKENS FinishLength, and
// any other reason (safety, recitation, a malformed function call, a
// blocked prompt) FinishOther.
//
// Failures come back as *llm.Error; their messages never contain the API
// key.
package gemini
