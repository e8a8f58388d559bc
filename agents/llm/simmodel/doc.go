// Package simmodel is the simulated model, the one the model spec "sim"
// (and "sim:weak", …) names: a deterministic stand-in for a language
// model, so that every workflow runs end to end with no network and no
// key. It is not package sim, the engines that change a scene.
//
// It reads only the request. A workflow states the context of each call
// in the request's typed Context ([llm.CallContext]), which restates what
// the prompt shows and which no real backend sends; sim reads that context
// and the conversation, plans with grounding.Decide on the tabletop and
// housework.Decide in the household (the same procedures the rules agent
// follows; household.go documents that track's reply formats), and
// answers in the format the context asks for. A request without a context
// gets NoContextReply. Input tokens count only what the request sends;
// the error rates grow with those and with the context's tokens, as they
// did when the context rode in the prompt, so that a rate means what it
// meant.
// It then errs at the rates of its [Profile]:
//
//   - hallucinate: an action names an object that is not there;
//   - multiplicity: of several matches it takes the first instead of asking;
//   - absence: it misses that something is absent and takes a lookalike;
//   - vague: it takes a vague phrase or a missing destination as specific;
//   - negation: it drops a "not" from the instruction;
//   - tag: it asks with a wrong ambiguity tag, or tells the user an object
//     is absent when it should ask the other robot;
//   - malformed: its reply is not in the asked format;
//   - skip (household): it puts an object without heating, cooling or
//     cleaning it first;
//   - loop (household): it sends its previous command again;
//   - overreflect (semmap): reviewing a sound answer, it finds fault
//     anyway (semmap.go lists the semmap slips);
//   - coord (tabletop): reading an object list's printed positions, it
//     takes each coordinate to be off by a normal error of this standard
//     deviation in metres; the relations it then works out from the
//     positions (the baselines' prompts show no relation graph) go wrong
//     only near a tie (coords.go);
//   - growth: every rate grows by this fraction per 1,000 prompt tokens
//     (and the coord spread with them).
//
// Each error is drawn from a random stream keyed by the profile, the hash of
// the request and its sample index, so the same request always gets the
// same reply and different samples at temperature > 0 get different ones.
// "sim:perfect" makes no error; it proves that a workflow's prompts,
// parsing and tool loop are right.
//
// What sim is not: a model of any real LLM. Its numbers describe how a
// workflow behaves under known error rates; they say nothing about how
// Gemini or Qwen would do.
package simmodel
