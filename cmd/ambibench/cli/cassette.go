package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/ambibench/ambibench/agents/llm/cassette"
)

const cassetteUsage = `Usage:
  ambibench cassette verify DIR           read every recording as a replay would; exit 2 naming each bad file
  ambibench cassette compact [--prune] DIR  rewrite every recording the way the store keeps least, with a dictionary trained on it if that pays
  ambibench cassette merge [--keep-first] OUT IN...  copy the recordings and images of the stores IN into OUT, then compact OUT

A cassette store (the DIR of --model record:DIR=SPEC and replay:DIR[=MODEL]) keeps
one file a request: DIR/KEY.zst, KEY the request's hash in 32 hex digits,
the recording's JSON compressed with zstd and the dictionary its frame
names (DIR/dict/ID.zdict); DIR/KEY.json, the first layout's, still reads.
Images are kept once each under DIR/images. Files of other names are no
recordings (a run recorded into its own --out keeps run.json there); a
directory holding files but no recording (a run's) is refused as no store.

A recorder compresses with the dictionary DIR/dict/current names, and, in
a store that names none (one not compacted), with the seed dictionary
ambibench ships for the recording's track (trained on the simulated
model's recordings of its workflows), picked from the recording's bytes
and copied into DIR/dict first; a recording like no seed is compressed
alone. So a store is compact as recorded (a tabletop grid: about 2.6 KB an
episode, images aside, against 36 KB as JSON and 12 KB compressed file by
file), and the same files whichever shard or worker writes them.

A call at repeat r > 0 of a --repeats run is kept under a key of its own,
a hash over the model, the request and r, its file saying "repeat": r;
repeat 0 is keyed as a run without repeats.

verify checks that each file unpacks, that its request (with its repeat)
hashes to its name, that the images it names are there, and that each
dictionary reads. A dictionary missing or damaged is named once, with how
many recordings are compressed with it (none reads without it); verify,
compact and merge then exit 2. The temporary files of recordings a killed
recorder never finished (DIR/.KEY.zst.*.tmp) are said on stderr, not
removed (a recorder may be writing one): no replay reads them.

compact draws about 2,000 of the store's recordings and estimates the
store's bytes written three ways: as recorders write it, with no
dictionary (a store that names none current), and with a dictionary
trained on the draw; it takes the least, the dictionaries' bytes counted
(those the store holds already only with --prune), and rewrites every
recording that way, each file replaced atomically and only once its new
bytes read back the same, deleting the .json files it replaces. A trained
dictionary becomes current, and recorders opened afterwards compress with
it. It pays on large stores, and on those of a model whose replies are
unlike the simulated model's (the seeds know the prompts, not its words);
a store the seed keeps well is left as recorded. Run it once a recording
is done (after all the shards of a run). A recording that cannot be read
is left as it is and named.

merge copies what OUT lacks, checking each recording as verify does; two
recordings of one request with different replies are an error naming both
files (--keep-first keeps the first: OUT's, then the earlier IN's). Every
IN is opened before OUT is made, and OUT only once a recording is copied:
a merge that fails having copied nothing leaves no OUT. What a failed merge
copied stays (each file whole and checked); merging again copies the rest.

Several processes may record into one store at once; run compact --prune
(which deletes dictionaries no recording uses, a seed the store no longer
needs among them) only when none does.
`

// cassetteCmd checks, compacts and merges cassette stores.
func cassetteCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench cassette", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), cassetteUsage) }
	if done, err := subcommand(fs, stdout, "cassette", args, "verify", "compact", "merge"); done {
		return err
	}
	sub := args[0]
	fs = flag.NewFlagSet("ambibench cassette "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	prune := false
	keepFirst := false
	var usage, want string
	switch sub {
	case "verify":
		usage, want = "ambibench cassette verify DIR", "one DIR"
	case "compact":
		usage, want = "ambibench cassette compact [--prune] DIR", "one DIR"
		fs.BoolVar(&prune, "prune", false, "delete the dictionaries no recording is compressed with (only while nothing records into DIR)")
	case "merge":
		usage, want = "ambibench cassette merge [--keep-first] OUT IN...", "OUT and at least one IN"
		fs.BoolVar(&keepFirst, "keep-first", false, "of two recordings of one request with different replies keep the first (OUT's, then the earlier IN's) instead of failing")
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\nSee ambibench cassette --help.\n", usage)
		if sub != "verify" {
			fmt.Fprint(fs.Output(), "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args[1:]) }); done {
		return err
	}
	n := fs.NArg()
	if (sub == "merge" && n < 2) || (sub != "merge" && n != 1) {
		return fmt.Errorf("cassette %s: want %s, got %d arguments", sub, want, n)
	}
	var (
		st  cassette.Stats
		err error
		dir = fs.Arg(0)
	)
	switch sub {
	case "verify":
		st, err = cassette.Verify(dir)
	case "compact":
		st, err = cassette.Compact(dir, cassette.CompactOptions{Prune: prune})
	case "merge":
		var merged cassette.Stats
		merged, err = cassette.Merge(dir, fs.Args()[1:], cassette.MergeOptions{KeepFirst: keepFirst})
		if err == nil {
			fmt.Fprintf(stdout, "merged into %s: %d recordings copied, %d already there, %d with another reply kept out\n",
				dir, merged.Recordings, merged.Duplicates, merged.Conflicts)
			st, err = cassette.Compact(dir, cassette.CompactOptions{})
		}
	}
	if err != nil {
		return fmt.Errorf("cassette %s:\n%w", sub, err)
	}
	printStats(stdout, dir, st)
	if st.Unfinished > 0 {
		fmt.Fprintf(stderr, "ambibench: cassette %s: %s holds %d temporary %s of recordings never finished (%s, …: a recorder killed as it wrote?), which no replay reads and no recording needs; remove them once no recorder writes the store\n",
			sub, dir, st.Unfinished, plural(st.Unfinished, "file", "files"), st.FirstUnfinished)
	}
	return nil
}

// printStats says what a store holds: bytes a recording, and the images
// apart, as a run's size is reckoned.
func printStats(w io.Writer, dir string, st cassette.Stats) {
	ratio := 0.0
	if st.StoreBytes() > 0 {
		ratio = float64(st.JSONBytes) / float64(st.StoreBytes())
	}
	fmt.Fprintf(w, "%s: %d recordings (%d in the first layout), %d bytes; %d dictionaries, %d bytes; %d bytes of JSON, %.1fx; images apart: %d, %d bytes\n",
		dir, st.Recordings, st.Legacy, st.Bytes, st.Dictionaries, st.DictionaryBytes, st.JSONBytes, ratio, st.Images, st.ImageBytes)
}
