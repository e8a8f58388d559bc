// Package cassette records a model's replies to files and replays them, so
// that a run against a live model can be repeated, offline and for free,
// with byte-identical results.
//
// A cassette (a store) is a directory holding one file per distinct
// request, DIR/<key>.zst, where key is [llm.Hash] of the model's name and
// the request (at repeat 0; see below for the other repeats), 32 hex
// digits; a file of another name is no recording (a run recorded into
// its own --out directory keeps its run.json there). The file is one zstd frame (github.com/klauspost/compress)
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
//
// A store names none until it is compacted. Until then a recorder
// compresses each recording with a seed dictionary the package ships, one
// a track (seed/TRACK.zdict), trained on the simulated model's recordings
// of the track's workflows: the seed whose text the recording shares the
// most of, or none when it shares little with every seed. The seed is
// copied into DIR/dict before the first file that names it, so a store
// reads without this package's seeds, and the choice is made from the
// recording's bytes alone, so a recording is the same file whichever
// shard or worker writes it. On a tabletop grid of the nine LLM workflows
// a store as recorded keeps about 2.6 KB an episode (2.1 KB of
// recordings, the rest the seed, 512 KiB once), images aside, against
// 36 KB as JSON and 12 KB compressed alone.
//
// [Compact] (ambibench cassette compact) weighs three ways of writing the
// store, on about 2,000 of its recordings: as recorders write it, with no
// dictionary, or with one trained on those recordings and made current;
// it takes the way the store keeps least, the dictionaries' own bytes
// counted, and rewrites every recording that way. A dictionary of the
// store's own pays on a large store or one of a model whose replies are
// unlike the simulated model's (the seeds know its prompts, not its
// words); a store the seeds keep well is left as recorded. [Verify] reads
// a store whole as a replay would, and [Merge] joins stores (the shards').
// A dictionary that is missing or does not read fails every recording
// compressed with it; they report it once, with how many recordings need
// it, and a directory that holds files but no recording (a run's) is
// refused as no store.
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
// dictionary as it was when Record was called, or with a seed when there
// was none. [Replay] serves the files and nothing else: a request not on
// file is a *[MissError].
//
// Both key the files by the name of the recorded model: a Recorder's Name
// is the wrapped model's, and a Player's is the name its caller gives or,
// when none is given, the one every file of the cassette holds. So record
// and replay hash identically, and the results of a replayed run name the
// model that really answered.
package cassette
