// Package simmodel is the simulated model, the one the model spec "sim"
// (and "sim:weak", …) names: a deterministic stand-in for a language
// model, so that every workflow runs end to end with no network and no
// key. It is not package sim, the engines that change a scene.
//
// It reads only the request. A workflow states the context of each call
// in the request's typed Context ([llm.CallContext]), which restates what
// the prompt shows and which no real backend sends; sim reads that context
// and the conversation and, as the call's track taught it (see below),
// plans with grounding.Decide on the tabletop, housework.Decide in the
// household and scenes.ParseObjectQuery and scenes.ResolveObjects on the
// semmap track (the same procedures the rules agent follows; household.go
// and semmap.go document those tracks' reply formats), and answers in the
// format the context asks for. A request without a context
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
//   - growth: every rate above grows by this fraction per 1,000 prompt
//     tokens (and the coord spread with them).
//
// # What each track taught it
//
// The model knows no track of itself: each track teaches it its calls
// with [Teach], from an init function of its own, giving a [Responder]
// that answers every call whose context names the track. The built-in
// tracks teach it from this package's tabletop.go, household.go and
// semmap.go; a fourth track teaches it from its own package, with what
// the exported [Call] shows of a call: its context and request, the
// profile, the call's random stream (Rand, Happens) and the situation's
// draws (Persists), so that its slips recur within an episode as the
// built-in tracks' do. A call is malformed at the profile's rate before
// any responder reads it. A call of a track nobody taught gets
// [UnknownTrackReply], which names the track, and no error.
//
// # What it sees
//
// A detection call of the tabletop (llm.CallDetect) shows the robot's
// camera image; sim reads, in place of the pixels, the context's Seen
// (each visible object's id, attributes, pixel box and visible fraction)
// and ImageSize. It replies with llm.ImageObjects as JSON: each object it
// sees named by its colour and type ("red block"), its box
// llm.NormBox of the pixel box clipped to the image, listed by box, top
// to bottom, then left to right (never by id, which a real model does
// not know). An object of which less than DetectFloor (0.1) is visible
// is never listed; "sim:perfect" lists every other object of Seen
// exactly, with no error. An image with a side of 0 pixels or less (or
// above 2^20) shows nothing, not even a phantom. The other profiles err
// at visual rates of their own:
//
//   - miss: a visible object is left out;
//   - colorswap: an object's colour is named as a close one (closeColors:
//     blue–cyan, blue–purple, red–orange, red–pink, red–brown,
//     orange–yellow, orange–brown, green–cyan, purple–pink, brown–gray);
//   - duplicate: an object is listed twice, the second box shifted by a
//     quarter to a half of its size along each axis;
//   - phantom: an object that is not there is listed, of a type in view
//     (a block when none is) and a colour that no object of that type in
//     view has.
//
// The rates grow with the number n of objects in view (at or above the
// floor) and, per object, with its occlusion h = max(0, (0.5 − f)/0.5)
// for a visible fraction f (0 for an object at least half visible, 0.8
// at the floor) and its smallness s = max(0, (12 − side)/12) for the
// shorter side of its box in pixels (0 from 12 px up). With crowd
// c = 1 + n/24, the probabilities, each at most 1, are
//
//	miss       = miss·c·(1 + 8h + 8s)
//	colorswap  = colorswap·c·(1 + 2h + 2s)
//	duplicate  = duplicate·c·(1 + 2h)   (occlusion splits an outline in two)
//	phantom    = phantom·c              (per image: at most one phantom)
//
// growth does not scale them: they follow the image, not the prompt's
// length. The defaults, miss 0.03, colorswap 0.03, duplicate 0.02 and
// phantom 0.02 (weak: 0.10, 0.10, 0.06, 0.08), and the formula's
// weights, knees and thresholds were chosen as plausible small rates
// for a capable vision-language model on an uncluttered table of plain
// coloured blocks and bowls, not tuned to any paper's table; benchmarks
// of object hallucination and grounding (POPE, CHAIR, RefCOCO) measure
// other images and tasks, and no number here is taken from them.
//
// A detection is malformed at the malformed rate, as every call is. The
// draws of a detection are hashed, like the misreadings above, from
// the situation and what each concerns (an object's id; the phantom),
// not from the order of calls: while the same objects are in view, an
// object missed at one look is missed at the next as long as it stays as
// hidden, and found once it shows more of itself.
//
// # What its draws are keyed by
//
// A misreading or slip that recurs through an episode (Persists, the
// detections' draws) is hashed from the situation (the model's spec with
// its salt and repeat, the track, instruction, robot, partner, message,
// the objects or map in view and a household game's opening), a key of
// what it concerns and, at temperature > 0, the sample. Every other error
// (Happens: a malformed reply among them; Rand) is drawn from the call's
// own random stream, seeded by a SHA-256 of a fixed amount of the call,
// whatever its prompt's length:
//
//   - the situation;
//   - the context's labels (role, format, tool, mode, trial) and the
//     lengths of its lists that grow through an episode (trajectory,
//     exchanges, moves done, reflections, case, answers, feedback,
//     requests);
//   - the request's shape: its numbers of messages and tool calls, the
//     characters of its system text and messages, its tools' names;
//   - its last message: role, tool-call names, tool-call id, name, the
//     images' digests, and its text whole up to 512 bytes, else the first
//     and last 256;
//   - the temperature, the seed and, at temperature > 0, the sample.
//
// So the same request always gets the same reply, at any concurrency and
// on either side of serve-sim's wire, and different samples at
// temperature > 0 get different ones. The stream is not keyed by a hash
// of the whole request (llm.Hash, which cassettes are keyed by): that
// read every byte of a prompt the model reads from the context, and its
// cost grew with the prompt. Two requests of one episode that differed
// only inside a long text, at the same length, in the same place of the
// episode and with the same sample, would share a stream: their draws
// would be alike, and still the same every run. The
// context's tokens that the rates grow with are counted from the lengths
// of its strings, not by marshalling it (readTokens).
//
// "sim:perfect" makes no error; it proves that a workflow's prompts,
// parsing and tool loop are right.
//
// What sim is not: a model of any real LLM. Its numbers describe how a
// workflow behaves under known error rates; they say nothing about how
// Gemini or Qwen would do.
package simmodel
