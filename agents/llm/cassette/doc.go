// Package cassette records a model's replies to files and replays them, so
// that a run against a live model can be repeated, offline and for free,
// with byte-identical results.
//
// A cassette (a store) is a directory holding one file per distinct
// request, DIR/<key>.zst, where key is [llm.Hash] of the model's name and
// the request (at repeat 0; see below for the other repeats). The file is one zstd frame (github.com/klauspost/compress)
// of a JSON object holding exactly the model name, that hash, the request
// and the reply:
//
//	{
//	  "model": "openai:gpt-4o-mini",
//	  "hash": "3f2a…",
//	  "request": { …an llm.Request… },
//	  "reply": { …an llm.Reply… }
//	}
//
// and nothing else: no key, token or header ever reaches it.
//
// A run with repeats (ambibench run --repeats) plays each episode several
// times, and a repeat sends the very request of repeat 0, which a live
// model answers with a fresh draw. So a call at a repeat r above 0
// (llm.RepeatFrom of its context) is kept apart: its key is [Key] of the
// model, the request and r, a hash over all three, and its file says so
// in one more field, "repeat": r, after "hash". At repeat 0 the key is
// llm.Hash of the model and the request and the file has no "repeat", as
// in every store written before repeats had keys of their own, so those
// stores still replay. [Verify] checks a file's hash against its model,
// request and repeat alike. Tool-call
// arguments that are not compact valid JSON (a malformed call, say) are
// stored verbatim as a string under "args_text" in place of "args", so a
// reply replays byte for byte (JSON holds text, so invalid UTF-8, which no
// JSON API delivers, would not be kept); raw JSON in the request that is not valid is
// stored quoted as a string, as [llm.Hash] reads it.
//
// Each file stays a file of its own, written atomically (a temporary file
// renamed into place), so several processes (the shards of a run) may
// record into one store at once. Compressed alone, a recording keeps about
// a third of its JSON; most of it is the workflow's prompt, the same from
// one episode to the next, which a dictionary kept in the store holds
// once: DIR/dict/ID.zdict, a zstd dictionary named by its ID in hex. The
// frame header of each file names the dictionary it was written with (or
// none), so reading never guesses, and a dictionary never changes once
// written. DIR/dict/current names the one recorders compress with.
// [Compact] (ambibench cassette compact) trains a dictionary on about
// 2,000 of the store's recordings, makes it current and rewrites every
// recording with it; on a tabletop grid of the nine LLM workflows a store
// then keeps about 2.2 KB an episode, images aside, against 36 KB as
// JSON and 12 KB compressed file by file. [Verify] reads a store whole as
// a replay would, and [Merge] joins stores (the shards' of one run).
//
// The first layout, one JSON file DIR/<key>.json holding the object
// above, still reads: a key is looked up as DIR/<key>.zst, then as
// DIR/<key>.json, and [Compact] rewrites such files in the new layout.
//
// A request's images are named in its file by digest, type and size
// (llm.Image), and their bytes are kept once each under DIR/images, by
// package imagefile, before the first file that names them is written. A
// recording whose images are missing, unreadable, or of another type or
// size is not served: the call fails as the cassette's (an infrastructure
// error) and the error names the image file.
//
// [Record] wraps a live model: a request already on file is served from
// it, so an interrupted run resumes without paying twice; any other goes to
// the model and its successful reply is written atomically (a temporary
// file renamed into place), compressed with the store's current
// dictionary as it was when Record was called. [Replay] serves the files
// and nothing else: a
// request not on file is a *[MissError].
//
// Both key the files by the name of the recorded model: a Recorder's Name
// is the wrapped model's, and a Player's is the name its caller gives or,
// when none is given, the one every file of the cassette holds. So record
// and replay hash identically, and the results of a replayed run name the
// model that really answered.
package cassette
