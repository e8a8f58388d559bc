package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
	"github.com/klauspost/compress/zstd"
)

// Stats describes a store: what [Verify], [Compact] and [Merge] found in
// it, or wrote to it.
type Stats struct {
	Recordings int   // distinct requests recorded
	Legacy     int   // of them, those only in a .json file of the first layout
	Bytes      int64 // of the recordings' files as stored
	JSONBytes  int64 // of their JSON, unpacked

	Dictionaries    int // files under DIR/dict/
	DictionaryBytes int64

	Images     int // files under DIR/images/, each image once
	ImageBytes int64

	// Merge only: recordings of a request already in the output (the
	// same reply, so left alone), and those whose reply differed there.
	Duplicates, Conflicts int

	// Unfinished are the temporary files of recordings never finished
	// (DIR/.KEY.zst.*.tmp: a recorder killed as it wrote one), which no
	// replay reads; FirstUnfinished the first by name. Verify counts
	// them; nothing removes them, since a recorder may be writing one.
	Unfinished      int
	FirstUnfinished string
}

// StoreBytes is what the store's recordings and dictionaries hold, the
// images aside.
func (s Stats) StoreBytes() int64 { return s.Bytes + s.DictionaryBytes }

// recording is one recorded request as found in a store.
type recording struct {
	key  string
	name string // its file: the .zst when there is one
	data []byte // its JSON
	// legacy is the .json file beside name, "" when there is none or it
	// is name itself.
	legacy string
}

// walk calls fn with each recording of the store, reading the directory
// a batch at a time so that a store of millions of files is never listed
// whole. A key with both a .zst and a .json file is one recording, read
// from the .zst as [Replay] does. A recording that cannot be read is
// passed to fn with its error, and the walk goes on; but the recordings
// compressed with a dictionary that cannot be read are passed once, at
// the end, as one *dictFailure a dictionary: one line that says what to
// mend rather than thousands that each say the same.
func (s *store) walk(fn func(r recording, err error) error) error {
	d, err := os.Open(s.dir)
	if err != nil {
		return err
	}
	defer d.Close()
	failed := map[uint32]*dictFailure{}
	for {
		entries, err := d.ReadDir(1024)
		for _, e := range entries {
			key := recordingKey(e.Name())
			if e.IsDir() || key == "" {
				if !e.IsDir() && unfinished(e.Name()) && s.unfinished != nil {
					s.unfinished(filepath.Join(s.dir, e.Name()))
				}
				continue
			}
			r := recording{key: key, name: filepath.Join(s.dir, e.Name())}
			if strings.HasSuffix(e.Name(), extJSON) {
				if _, err := os.Stat(filepath.Join(s.dir, key+extZstd)); err == nil {
					continue // read with its .zst
				}
			} else if _, err := os.Stat(filepath.Join(s.dir, key+extJSON)); err == nil {
				r.legacy = filepath.Join(s.dir, key+extJSON)
			}
			raw, rerr := os.ReadFile(r.name)
			if errors.Is(rerr, fs.ErrNotExist) {
				continue // gone since listed: compacted
			}
			if rerr == nil {
				// The ErrNotExist of a dictionary lost is no file gone:
				// its recordings are kept, and said once.
				if f := failed[headerDict(r.name, raw)]; f != nil {
					f.add(r.name)
					continue
				}
				r.data, rerr = s.unpack(r.name, raw)
				if de := (*dictError)(nil); errors.As(rerr, &de) {
					failed[de.id] = &dictFailure{dictError: *de}
					failed[de.id].add(r.name)
					continue
				}
			}
			if err := fn(r, rerr); err != nil {
				return err
			}
		}
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF {
			break
		}
	}
	for _, id := range slices.Sorted(maps.Keys(failed)) {
		if err := fn(recording{}, failed[id]); err != nil {
			return err
		}
	}
	return nil
}

// unfinished reports whether name is the temporary file of a recording
// being written, or never finished: writeTemp's ".KEY.EXT.*.tmp".
func unfinished(name string) bool {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok || !strings.HasSuffix(rest, ".tmp") {
		return false
	}
	base, _, _ := strings.Cut(rest, ".")
	for _, ext := range []string{extZstd, extJSON} {
		if recordingKey(base+ext) != "" && strings.HasPrefix(rest, base+ext+".") {
			return true
		}
	}
	return false
}

// dictFailure is a dictionary that cannot be read and the recordings
// compressed with it, which none can be read without.
type dictFailure struct {
	dictError
	n     int
	first string // the first recording by name, so the error is the same each walk
}

func (f *dictFailure) add(name string) {
	if f.n == 0 || name < f.first {
		f.first = name
	}
	f.n++
}

func (f *dictFailure) Error() string {
	which := fmt.Sprintf("%d recordings are compressed with it (%s, …) and cannot be read", f.n, f.first)
	if f.n == 1 {
		which = fmt.Sprintf("a recording is compressed with it (%s) and cannot be read", f.first)
	}
	if errors.Is(f.err, fs.ErrNotExist) {
		return fmt.Sprintf("cassette dictionary %s is missing: %s; put it back to read them", f.path, which)
	}
	return fmt.Sprintf("%v: %s", f.err, which)
}

// check reads a recording whole, as a Player would serve it: the JSON
// holds a reply to the request its name says, and the images it names
// are in the store. It returns the recording's request and reply.
func (s *store) check(r recording) (llm.Request, llm.Reply, error) {
	reply, err := decode(r.name, r.data, "", r.key)
	if err != nil {
		return llm.Request{}, llm.Reply{}, err
	}
	var f file
	if err := json.Unmarshal(r.data, &f); err != nil {
		return llm.Request{}, llm.Reply{}, fmt.Errorf("cassette file %s: %v", r.name, err)
	}
	if err := checkImages(s.dir, f.Request); err != nil {
		return llm.Request{}, llm.Reply{}, fmt.Errorf("cassette file %s: %w", r.name, err)
	}
	return f.Request, reply, nil
}

// count adds r's files to st.
func (st *Stats) count(r recording) {
	st.Recordings++
	if strings.HasSuffix(r.name, extJSON) {
		st.Legacy++
	}
	if info, err := os.Stat(r.name); err == nil {
		st.Bytes += info.Size()
	}
	st.JSONBytes += int64(len(r.data))
}

// countFiles adds the dictionaries and images of dir to st, and returns
// the problems of its dictionaries.
func (st *Stats) countFiles(dir string) []error {
	var errs []error
	id, err := currentDict(dir)
	if err != nil {
		errs = append(errs, err)
	} else if id != 0 {
		if _, err := readDict(dir, id); err != nil {
			errs = append(errs, &dictError{id: id, path: dictPath(dir, id),
				err: fmt.Errorf("%s: names dictionary %08x: %w", filepath.Join(dir, dictDir, current), id, err)})
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, dictDir))
	for _, e := range entries {
		name := e.Name()
		hex, ok := strings.CutSuffix(name, dictExt)
		if !ok || strings.HasPrefix(name, ".") {
			continue
		}
		st.Dictionaries++
		if info, err := e.Info(); err == nil {
			st.DictionaryBytes += info.Size()
		}
		var id uint32
		if _, err := fmt.Sscanf(hex, "%08x", &id); err != nil || fmt.Sprintf("%08x", id) != hex {
			errs = append(errs, fmt.Errorf("%s: not named by a dictionary ID (8 hex digits)", filepath.Join(dir, dictDir, name)))
			continue
		}
		if _, err := readDict(dir, id); err != nil {
			errs = append(errs, &dictError{id: id, path: dictPath(dir, id), err: err})
		}
	}
	filepath.WalkDir(filepath.Join(dir, imagefile.Dir), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			st.Images++
			if info, err := d.Info(); err == nil {
				st.ImageBytes += info.Size()
			}
		}
		return nil
	})
	return errs
}

// Verify reads every recording of the store in dir as a [Player] would
// serve it (each file unpacks, with the dictionary it names; its JSON is
// a reply to the request its name is the hash of; the images it names
// are there, of their type and size) and every dictionary, and returns
// what it found. Every problem is in the error, one a line, each naming
// its file; a dictionary that cannot be read is one line, which says how
// many recordings are compressed with it. dir must be a directory that
// holds a recording, or no file at all.
func Verify(dir string) (Stats, error) {
	var st Stats
	s, err := openExisting(dir)
	if err != nil {
		return st, err
	}
	var errs []error
	s.unfinished = func(name string) {
		if st.Unfinished == 0 || name < st.FirstUnfinished {
			st.FirstUnfinished = name
		}
		st.Unfinished++
	}
	err = s.walk(func(r recording, err error) error {
		if err == nil {
			_, _, err = s.check(r)
		}
		if err == nil && r.legacy != "" {
			err = sameLegacy(r)
		}
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		st.count(r)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return st, errors.Join(withFileErrs(errs, st.countFiles(dir))...)
}

// withFileErrs appends to errs, a walk's, the problems countFiles found
// with the store's dictionaries, but for those of a dictionary errs
// already report with the recordings that need it.
func withFileErrs(errs, files []error) []error {
	said := map[uint32]bool{}
	for _, err := range errs {
		if f := (*dictFailure)(nil); errors.As(err, &f) {
			said[f.id] = true
		}
	}
	for _, err := range files {
		if de := (*dictError)(nil); errors.As(err, &de) && said[de.id] {
			continue
		}
		errs = append(errs, err)
	}
	return errs
}

// openExisting opens the store in dir for [Verify], [Compact] and the
// inputs of [Merge], which read a store that must be there: dir must be
// a directory, and one that holds a recording or nothing but what a
// store may hold beside them (a run recorded into its own store keeps
// its files there too, but a run's directory alone is no store).
func openExisting(dir string) (*store, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such cassette store (the directory is not there)", dir)
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a directory, so not a cassette store (want the DIR of --model record:DIR=SPEC)", dir)
	}
	if err := holdsRecordings(dir); err != nil {
		return nil, err
	}
	return openStore(dir)
}

// holdsRecordings refuses a directory that holds files but no recording,
// listing it until the first recording (at once, in a store).
func holdsRecordings(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	var others []string
	run := false
	for {
		entries, err := d.ReadDir(1024)
		for _, e := range entries {
			name := e.Name()
			switch {
			case recordingKey(name) != "":
				return nil
			case e.IsDir() || strings.HasPrefix(name, "."):
			default:
				others = append(others, name)
				run = run || name == "run.json"
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if len(others) == 0 {
		return nil // an empty store: one a run that made no call recorded into
	}
	slices.Sort(others)
	what := strings.Join(others, ", ")
	if len(others) > 3 {
		what = strings.Join(others[:3], ", ") + ", …"
	}
	hint := ""
	if run {
		hint = "; it is a run's directory (ambibench run --out DIR), and the store is the DIR of --model record:DIR=SPEC"
	}
	return fmt.Errorf("%s is not a cassette store: it holds no recording (KEY%s or KEY%s, KEY a request's hash in %d hex digits) but %d other files (%s)%s",
		dir, extZstd, extJSON, keyLen, len(others), what, hint)
}

// sameLegacy reports a .json file beside a .zst one (a compaction cut
// short leaves one) whose recording is not the same.
func sameLegacy(r recording) error {
	data, err := os.ReadFile(r.legacy)
	if err != nil {
		return err
	}
	if !bytes.Equal(data, r.data) {
		return fmt.Errorf("cassette file %s: another recording than %s, which is the one replayed; delete the one that is wrong", r.legacy, r.name)
	}
	return nil
}

// CompactOptions are the options of [Compact].
type CompactOptions struct {
	// Prune deletes the dictionaries no recording is compressed with
	// once the rest is done. Only when nothing is recording into the
	// store: a recorder still writing with an old dictionary puts it back,
	// but a file it renames into place between the count and the
	// deletion would name a dictionary the store lacks.
	Prune bool
}

// sampleCount is about how many recordings Compact trains a dictionary
// on: about 8 MB of a tabletop grid's.
const sampleCount = 2000

// Compact rewrites every recording of the store in dir the way that
// keeps the store smallest, as DIR/<key>.zst; a .json file of the first
// layout is deleted once its .zst is in place and reads back the same.
// Every file is replaced atomically, and a recording is rewritten only
// when its new file unpacks to the very bytes of the old, so that no
// reply is ever lost or changed. A recording that cannot be read is left
// as it is and reported in the error, which names its file; the rest is
// compacted.
//
// The ways are: with a dictionary trained on about 2,000 recordings drawn
// by the hash of their keys (the same for the same store), which becomes
// the store's current one, the one recorders opened later compress with;
// as recorders write a store (with its current dictionary, or, when it
// names none, with the seed dictionary each recording resembles, or
// none); and, when the store names no current dictionary, with none.
// Compact estimates the store's bytes each way from the draw, counting
// the dictionaries it would add, and takes the smallest: a store the
// seeds keep well is left as recorded until it is large enough for a
// dictionary of its own to pay for itself, and a store too small to
// train one (under 64 KiB of JSON) keeps no more than it would without.
// A store whose recordings all use its current dictionary already is left
// as it is.
func Compact(dir string, opts CompactOptions) (Stats, error) {
	s, err := openExisting(dir)
	if err != nil {
		return Stats{}, err
	}
	return s.compact(opts)
}

// compact is Compact of s.
func (s *store) compact(opts CompactOptions) (Stats, error) {
	dir := s.dir
	// Pass 1: count, and draw the samples.
	n, inCurrent := 0, 0
	err := s.walk(func(r recording, err error) error {
		if err == nil {
			n++
			if r.legacy == "" && strings.HasSuffix(r.name, extZstd) && frameDict(r.name) == s.dictID && s.dictID != 0 {
				inCurrent++
			}
		}
		return nil
	})
	if err != nil {
		return Stats{}, err
	}
	if n > 0 && inCurrent < n {
		if err := s.choose(n, opts.Prune); err != nil {
			return Stats{}, err
		}
	}
	// Pass 2: rewrite.
	var st Stats
	var errs []error
	err = s.walk(func(r recording, err error) error {
		if err == nil {
			_, _, err = s.check(r)
		}
		if err == nil {
			err = s.rewrite(&r)
		}
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		st.count(r)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if opts.Prune && len(errs) == 0 {
		errs = append(errs, s.prune()...)
	}
	return st, errors.Join(withFileErrs(errs, st.countFiles(dir))...)
}

// choose decides how Compact writes the store, which holds n recordings
// not all written with its current dictionary. It draws about
// sampleCount of them, and estimates the bytes the store will keep once
// compacted (the draw's, scaled to n, and those of the dictionaries it
// will hold) written three ways:
//
//   - as a recorder writes them (with the current dictionary, or the
//     seeds when there is none: see store.target);
//   - with no dictionary, when the store names none current (a store too
//     small for any dictionary to pay for itself);
//   - with a dictionary trained on the draw, made current.
//
// It takes the smallest, the first of equals. A dictionary the store
// holds already costs nothing more unless prune is set (Compact then
// deletes those no recording uses). On BenchmarkCassetteStore's grid
// (1,170 episodes, recorded with the tabletop seed) a dictionary trained
// on the store keeps a recording in 131 bytes an episode less than the
// seed, and costs 448 bytes an episode: the store is left as recorded,
// and with prune (the seed's bytes counted too) it is rewritten with its
// own.
func (s *store) choose(n int, prune bool) error {
	samples, err := s.samples(n)
	if err != nil || len(samples) == 0 {
		return err
	}
	best, err := s.estimate(samples, n, prune, s.packNew)
	if err != nil {
		return err
	}
	none := false
	if s.dictID == 0 {
		enc, err := newEncoder(nil)
		if err != nil {
			return err
		}
		est, err := s.estimate(samples, n, prune, func(data []byte) ([]byte, uint32, []byte, error) {
			return enc.EncodeAll(data, nil), 0, nil, nil
		})
		if err != nil {
			return err
		}
		if est < best {
			best, none = est, true
		}
	}
	dict, id, err := trainDict(samples, historyBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", s.dir, err)
	}
	if id != 0 {
		enc, err := newEncoder(dict)
		if err != nil {
			return err
		}
		est, err := s.estimate(samples, n, prune, func(data []byte) ([]byte, uint32, []byte, error) {
			return enc.EncodeAll(data, nil), id, dict, nil
		})
		if err != nil {
			return err
		}
		if est < best {
			return s.makeCurrent(id, dict)
		}
	}
	if none {
		s.seeds = nil
	}
	return nil
}

// estimate returns the bytes the store will keep with its recordings
// packed by pack, as the samples, drawn from its n recordings, are: theirs
// scaled to n, and those of each dictionary they name, unless the store
// holds it already and it is not to be pruned (prune: a dictionary no
// recording uses is deleted, so a kept one costs its bytes).
func (s *store) estimate(samples [][]byte, n int, prune bool, pack func([]byte) ([]byte, uint32, []byte, error)) (float64, error) {
	var packed int64
	dicts := map[uint32]int{}
	for _, data := range samples {
		frame, id, dict, err := pack(data)
		if err != nil {
			return 0, err
		}
		packed += int64(len(frame))
		if id == 0 {
			continue
		}
		if _, err := os.Stat(dictPath(s.dir, id)); prune || errors.Is(err, os.ErrNotExist) {
			dicts[id] = len(dict)
		}
	}
	est := float64(packed) * float64(n) / float64(len(samples))
	for _, size := range dicts {
		est += float64(size)
	}
	return est, nil
}

// makeCurrent writes dict, of ID id, into the store and makes it current,
// for this store and the recorders opened after.
func (s *store) makeCurrent(id uint32, dict []byte) error {
	if err := writeNew(dictPath(s.dir, id), dict); err != nil {
		return err
	}
	// Read back: a dictionary of this ID already there must be this one
	// (IDs are drawn from the history).
	got, err := readDict(s.dir, id)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, dict) {
		return fmt.Errorf("%s: another dictionary of the same ID is there; move it away and compact again", dictPath(s.dir, id))
	}
	if err := writeFile(filepath.Join(s.dir, dictDir, current), fmt.Appendf(nil, "%08x\n", id)); err != nil {
		return err
	}
	s.seeds = nil
	return s.useDict(id, dict)
}

// samples returns the JSON of the recordings a dictionary is trained on,
// of the n the store holds: about sampleCount of them, drawn by the hash
// of their keys (see drawn), in key order.
func (s *store) samples(n int) ([][]byte, error) {
	var samples []recording
	err := s.walk(func(r recording, err error) error {
		if err == nil && drawn(r.key, n) {
			samples = append(samples, recording{key: r.key, data: r.data})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(samples, func(a, b recording) int { return strings.Compare(a.key, b.key) })
	data := make([][]byte, len(samples))
	for i, r := range samples {
		data[i] = r.data
	}
	return data, nil
}

// TrainSeed trains a seed dictionary (see the package documentation) on
// the recordings of the store in dir, as the package's own were: on
// about 2,000 of them drawn as [Compact] draws them, with a history of
// 512 KiB. It writes nothing, and returns nil when the store is too small
// to train one (under 64 KiB of JSON). A recording that cannot be read
// is an error naming its file.
func TrainSeed(dir string) ([]byte, error) {
	s, err := openStoreSeeds(dir, nil)
	if err != nil {
		return nil, err
	}
	n := 0
	var errs []error
	err = s.walk(func(r recording, err error) error {
		if err == nil {
			_, _, err = s.check(r)
		}
		if err != nil {
			errs = append(errs, err)
		}
		n++
		return nil
	})
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	data, err := s.samples(n)
	if err != nil {
		return nil, err
	}
	// A reply's latency is the one thing two recordings of a run by the
	// simulated model do not share (it is the call's, timed): without it
	// the seed is the same each time its corpus is recorded.
	for i, d := range data {
		var f file
		if err := json.Unmarshal(d, &f); err != nil || f.Reply == nil {
			return nil, fmt.Errorf("%s: a recording changed while read (%v)", dir, err)
		}
		f.Reply.Latency = 0
		if data[i], err = marshalFile(f); err != nil {
			return nil, err
		}
	}
	dict, _, err := trainDict(data, historyBytes)
	return dict, err
}

// SizeWith returns the bytes the recordings of the store in dir would
// take, each compressed alone with the dictionary dict (with none when
// dict is nil), as a recorder writes them.
func SizeWith(dir string, dict []byte) (int64, error) {
	s, err := openStoreSeeds(dir, nil)
	if err != nil {
		return 0, err
	}
	enc, err := newEncoder(dict)
	if err != nil {
		return 0, err
	}
	var n int64
	var errs []error
	err = s.walk(func(r recording, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		n += int64(len(enc.EncodeAll(r.data, nil)))
		return nil
	})
	return n, errors.Join(append(errs, err)...)
}

// drawn reports whether the recording of key is among the samples a
// dictionary is trained on, in a store of n recordings: keys are hashes,
// and a hash of the key draws about sampleCount of them.
func drawn(key string, n int) bool {
	if n <= sampleCount {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return uint64(h.Sum32())*uint64(n) < uint64(sampleCount)<<32
}

// frameDict returns the dictionary the frame in the file called name was
// written with, 0 for none or when the file cannot be read.
func frameDict(name string) uint32 {
	f, err := os.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	head := make([]byte, 18)
	n, _ := io.ReadFull(f, head)
	return headerDict(name, head[:n])
}

// headerDict returns the dictionary the frame of the recording file
// called name, whose bytes start with data, names: 0 for none, for a
// .json file, or when the header does not read.
func headerDict(name string, data []byte) uint32 {
	var h zstd.Header
	if !strings.HasSuffix(name, extZstd) || h.Decode(data) != nil {
		return 0
	}
	return h.DictionaryID
}

// rewrite writes r as the store writes a new recording (see
// store.target), unless its file is already written so, and deletes the
// .json file of its key once the new file is in place. r is updated to
// name the file it is now in.
func (s *store) rewrite(r *recording) error {
	id, _, _, err := s.target(r.data)
	if err != nil {
		return err
	}
	if strings.HasSuffix(r.name, extZstd) && frameDict(r.name) == id {
		return s.dropLegacy(r)
	}
	packed, id, dict, err := s.packNew(r.data)
	if err == nil {
		err = s.haveDict(id, dict)
	}
	if err != nil {
		return err
	}
	again, err := s.unpackWith(id, packed)
	if err != nil || !bytes.Equal(again, r.data) {
		return fmt.Errorf("cassette file %s: compressed with dictionary %08x, it would not read back the same (%v); left as it is", r.name, id, err)
	}
	name := filepath.Join(s.dir, r.key+extZstd)
	if err := writeFile(name, packed); err != nil {
		return err
	}
	if r.name != name {
		r.legacy, r.name = r.name, name
	}
	return s.dropLegacy(r)
}

// dropLegacy deletes the .json file beside r's .zst when it holds the
// same recording.
func (s *store) dropLegacy(r *recording) error {
	if r.legacy == "" {
		return nil
	}
	if err := sameLegacy(*r); err != nil {
		return err
	}
	if err := os.Remove(r.legacy); err != nil {
		return err
	}
	r.legacy = ""
	return nil
}

// unpackWith unpacks a frame written with dictionary id.
func (s *store) unpackWith(id uint32, data []byte) ([]byte, error) {
	d, err := s.decoder(id)
	if err != nil {
		return nil, err
	}
	return d.DecodeAll(data, nil)
}

// prune deletes the dictionaries that neither a recording nor current
// names.
func (s *store) prune() []error {
	used := map[uint32]bool{s.dictID: true}
	if err := s.walk(func(r recording, err error) error {
		if err == nil && strings.HasSuffix(r.name, extZstd) {
			used[frameDict(r.name)] = true
		}
		return nil
	}); err != nil {
		return []error{err}
	}
	var errs []error
	entries, _ := os.ReadDir(filepath.Join(s.dir, dictDir))
	for _, e := range entries {
		var id uint32
		if _, err := fmt.Sscanf(e.Name(), "%08x"+dictExt, &id); err != nil || used[id] {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, dictDir, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// MergeOptions are the options of [Merge].
type MergeOptions struct {
	// KeepFirst keeps, of two recordings of one request with different
	// replies, the one in the output or in the earlier input, and counts
	// it in Stats.Conflicts; without it such a pair is an error (naming
	// both files), as a run replayed from the merged store would not be
	// the run recorded from the other.
	KeepFirst bool
}

// Merge copies the recordings of the stores ins, and the images they
// name, into the store out (made if need be), each checked as [Verify]
// does on the way, compressed with out's current dictionary. A request
// out holds already is left as it is. Stores recorded by the shards of
// one run, or by runs of one model, merge into one; [Compact] the output
// afterwards to train its dictionary on it all.
//
// Every input is opened before anything is written, and out is made
// only when the first recording is copied (or once all is done, when
// the stores hold none), so that a merge refused at the start leaves no
// out behind. What a merge that fails later has copied stays: each
// recording is a whole file, checked, and merging again copies the rest.
func Merge(out string, ins []string, opts MergeOptions) (Stats, error) {
	var st Stats
	if info, err := os.Stat(out); err == nil && !info.IsDir() {
		return st, fmt.Errorf("%s is not a directory, so not a cassette store", out)
	}
	srcs := make([]*store, len(ins))
	for i, in := range ins {
		if same, _ := sameDir(in, out); same {
			return st, fmt.Errorf("%s: the output cannot be one of the inputs", in)
		}
		src, err := openExisting(in)
		if err != nil {
			return st, err
		}
		srcs[i] = src
	}
	dst, err := openStore(out)
	if err != nil {
		return st, err
	}
	var errs []error
	for i, src := range srcs {
		err = src.walk(func(r recording, err error) error {
			var req llm.Request
			var reply llm.Reply
			if err == nil {
				req, reply, err = src.check(r)
			}
			if err == nil {
				err = dst.merge(src, r, req, reply, &st, opts)
			}
			if err != nil {
				errs = append(errs, err)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ins[i], err))
		}
	}
	if len(errs) == 0 {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return st, err
		}
	}
	return st, errors.Join(errs...)
}

// merge copies r, of src, into s.
func (s *store) merge(src *store, r recording, req llm.Request, reply llm.Reply, st *Stats, opts MergeOptions) error {
	name, data, ok, err := s.read(r.key)
	if err != nil {
		return err
	}
	if ok {
		have, err := decode(name, data, "", r.key)
		if err != nil {
			return err
		}
		if reflect.DeepEqual(have, reply) {
			st.Duplicates++
			return nil
		}
		st.Conflicts++
		if opts.KeepFirst {
			return nil
		}
		return fmt.Errorf("cassette file %s: another reply to its request than %s's; kept %s (merge with --keep-first to keep the first without an error)", r.name, name, name)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	for i, m := range req.Messages {
		for j, im := range m.Images {
			im, err := imagefile.Open(src.dir, im)
			if err == nil {
				err = imagefile.Store(s.dir, im)
			}
			if err != nil {
				return fmt.Errorf("cassette file %s: message %d, image %d: %w", r.name, i, j, err)
			}
		}
	}
	if err := s.write(r.key, r.data); err != nil {
		return err
	}
	st.count(recording{key: r.key, name: filepath.Join(s.dir, r.key+extZstd), data: r.data})
	return nil
}

// sameDir reports whether a and b are one directory.
func sameDir(a, b string) (bool, error) {
	ai, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	bi, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ai, bi), nil
}

// ReadFile returns the JSON of the recording file called name, in either
// layout: the file itself for a .json file, its frame unpacked, with the
// dictionary it names from the store it is in, for a .zst file. The error
// names the file.
func ReadFile(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	s := &store{dir: filepath.Dir(name), decoders: map[uint32]*zstd.Decoder{}}
	return s.unpack(name, data)
}
