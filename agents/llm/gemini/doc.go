// Package gemini is the llm.Model backend for Google's Gemini models, on the
// Gemini Developer API or on Vertex AI, through google.golang.org/genai. The
// SDK's retries and its automatic continuation are off: one Generate is
// exactly one HTTP attempt, and retrying is the job of the project's
// middleware.
//
// How an llm.Request is sent (generateContent):
//
//   - System becomes the system instruction.
//   - User turns are "user" contents; assistant turns are "model" contents
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
// "call_0", "call_1", … in order. Output tokens count the candidates' and
// the thinking tokens, as both are billed as output. STOP becomes
// FinishToolCalls when the reply calls tools, MAX_TOKENS FinishLength, and
// any other reason (safety, recitation, a malformed function call, a
// blocked prompt) FinishOther.
//
// Failures come back as *llm.Error; their messages never contain the API
// key.
package gemini
