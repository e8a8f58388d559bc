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
//     holding their text and one functionCall part per tool call. The first
//     functionCall part of each model turn carries the thought signature
//     that Google documents for histories the client did not keep
//     ("skip_thought_signature_validator"): Gemini 3 models refuse function
//     calls in the history without one, and llm.ToolCall has no place to
//     keep the real signature.
//   - Tool-call arguments are sent as the JSON object they hold; arguments
//     that are not a JSON object (a malformed call echoed back) are sent as
//     {"_raw": "<the text>"}.
//   - Tool turns are functionResponse parts, {"output": <text>}, with the
//     call's id; consecutive tool turns share one "user" content. A tool
//     turn without Name takes the name of the earlier call with its id.
//   - Tools become function declarations with the schema as
//     parametersJsonSchema, untouched.
//   - Temperature is always sent; Seed when non-zero (folded into 32 bits
//     when it does not fit: seed XOR seed>>32); MaxOutputTokens when
//     positive; ResponseSchema as responseJsonSchema with the MIME type
//     application/json. Request.Sample is not sent.
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
