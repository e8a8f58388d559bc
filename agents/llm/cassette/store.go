package cassette

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The layout of a store (see the package documentation):
//
//	DIR/KEY.zst            a recording: one zstd frame of the JSON below,
//	                       naming in its header the dictionary it needs
//	DIR/KEY.json           a recording in the first layout, the JSON itself
//	DIR/dict/ID.zdict      a zstd dictionary, named by its ID in hex
//	DIR/dict/current       the ID new recordings are compressed with
//	DIR/images/DIGEST.EXT  the images, once each (package imagefile)
const (
	extZstd  = ".zst"
	extJSON  = ".json"
	dictDir  = "dict"
	dictExt  = ".zdict"
	current  = "current"
	maxBytes = 256 << 20 // the largest recording a frame may unpack to
)

// Dictionary IDs below 32768 and from 2^31 are reserved by the zstd
// format (RFC 8878, section 5); IDs are drawn from between.
const (
	minDictID = 1 << 15
	maxDictID = 1<<31 - 1
)

// store reads and writes the recordings of one directory. Its decoders,
// one per dictionary, are made as recordings first need them: a
// dictionary never changes once written, so neither does its decoder.
type store struct {
	dir string
	// unfinished, when set, is told of each temporary file of a
	// recording that walk passes (Verify counts them).
	unfinished func(name string)

	mu       sync.Mutex
	decoders map[uint32]*zstd.Decoder

	// The encoder of new recordings, with the dictionary the store named
	// current when it was opened (dictID 0: none), and that dictionary's
	// bytes, to put back should it be pruned while this store writes.
	enc    *zstd.Encoder
	dictID uint32
	dict   []byte

	// The seed dictionaries a recording is compressed with when the
	// store names none current (see seed.go); nil once it does. Read
	// when a recording is first written: a store opened to be read needs
	// none.
	seeds func() (*seedSet, error)
}

// openStore opens dir's recordings for reading and writing, new ones
// compressed with the dictionary dir names current, if any, and
// otherwise with the package's seed dictionaries.
func openStore(dir string) (*store, error) {
	return openStoreSeeds(dir, defaultSeeds)
}

// openStoreSeeds is openStore with seeds in place of the package's (none
// when nil).
func openStoreSeeds(dir string, seeds func() (*seedSet, error)) (*store, error) {
	s := &store{dir: dir, decoders: map[uint32]*zstd.Decoder{}}
	id, err := currentDict(dir)
	if err != nil {
		return nil, err
	}
	if id != 0 {
		if s.dict, err = readDict(dir, id); err != nil {
			return nil, err
		}
	} else {
		s.seeds = seeds
	}
	if err := s.useDict(id, s.dict); err != nil {
		return nil, err
	}
	return s, nil
}

// newEncoder returns an encoder of recordings with dict (none when nil).
func newEncoder(dict []byte) (*zstd.Encoder, error) {
	opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1)}
	if dict != nil {
		opts = append(opts, zstd.WithEncoderDict(dict))
	}
	return zstd.NewWriter(nil, opts...)
}

// useDict makes dict (ID id, or none when id is 0) the one new recordings
// are compressed with.
func (s *store) useDict(id uint32, dict []byte) error {
	if id == 0 {
		dict = nil
	}
	enc, err := newEncoder(dict)
	if err != nil {
		return fmt.Errorf("%s: %w", dictPath(s.dir, id), err)
	}
	s.enc, s.dictID, s.dict = enc, id, dict
	return nil
}

func dictPath(dir string, id uint32) string {
	return filepath.Join(dir, dictDir, fmt.Sprintf("%08x", id)+dictExt)
}

// currentDict reads the ID dir/dict/current names, 0 when there is no
// such file.
func currentDict(dir string) (uint32, error) {
	name := filepath.Join(dir, dictDir, current)
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	id, err := strconv.ParseUint(strings.TrimSpace(string(data)), 16, 32)
	if err != nil || id < minDictID || id > maxDictID {
		return 0, fmt.Errorf("%s: want a dictionary ID in hex, from %x to %x, got %q", name, minDictID, maxDictID, bytes.TrimSpace(data))
	}
	return uint32(id), nil
}

// readDict reads the dictionary of ID id in dir, refusing a file that is
// not a zstd dictionary or is one of another ID.
func readDict(dir string, id uint32) ([]byte, error) {
	name := dictPath(dir, id)
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	d, err := zstd.InspectDictionary(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a zstd dictionary: %v", name, err)
	}
	if d.ID() != id {
		return nil, fmt.Errorf("%s: holds dictionary %08x, not the %08x its name says", name, d.ID(), id)
	}
	return data, nil
}

// decoder returns the decoder of the frames written with dictionary id
// (0: none).
func (s *store) decoder(id uint32) (*zstd.Decoder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.decoders[id]; d != nil {
		return d, nil
	}
	opts := []zstd.DOption{zstd.WithDecoderMaxMemory(maxBytes), zstd.WithDecoderConcurrency(0)}
	if id != 0 {
		dict, err := readDict(s.dir, id)
		if err != nil {
			return nil, &dictError{id: id, path: dictPath(s.dir, id), err: err}
		}
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	d, err := zstd.NewReader(nil, opts...)
	if err != nil {
		return nil, err
	}
	s.decoders[id] = d
	return d, nil
}

// dictError is a dictionary a frame names that cannot be read: every
// recording compressed with it fails alike, which store.walk reports once.
type dictError struct {
	id   uint32
	path string // the dictionary's file
	err  error  // readDict's, naming it
}

func (e *dictError) Error() string { return e.err.Error() }
func (e *dictError) Unwrap() error { return e.err }

// unpack returns the JSON of the recording at name whose bytes are data:
// data itself for a .json file, its frame unpacked for a .zst file. The
// error names the file and what is wrong with it.
func (s *store) unpack(name string, data []byte) ([]byte, error) {
	if !strings.HasSuffix(name, extZstd) {
		return data, nil
	}
	if err := emptyFile(name, data); err != nil {
		return nil, err
	}
	var h zstd.Header
	if err := h.Decode(data); err != nil {
		return nil, fmt.Errorf("cassette file %s: not a zstd frame (cut short, or not a recording?): %v", name, err)
	}
	if h.Skippable {
		return nil, fmt.Errorf("cassette file %s: starts with a skippable zstd frame, which no recording has", name)
	}
	if id := h.DictionaryID; id != 0 && (id < minDictID || id > maxDictID) {
		return nil, fmt.Errorf("cassette file %s: names dictionary %08x, an ID zstd reserves", name, id)
	}
	d, err := s.decoder(h.DictionaryID)
	if err != nil {
		return nil, fmt.Errorf("cassette file %s: its dictionary: %w", name, err)
	}
	out, err := d.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("cassette file %s: unpacking with dictionary %08x: %v", name, h.DictionaryID, err)
	}
	return out, nil
}

// pack compresses a recording's JSON with the store's current
// dictionary, or with none when it names none.
func (s *store) pack(data []byte) []byte {
	return s.enc.EncodeAll(data, make([]byte, 0, len(data)/4))
}

// target returns the dictionary a new recording whose JSON is data is
// compressed with: the store's current one, or, when it names none, the
// seed the recording resembles most (or none). It depends on data and
// the store's dictionaries alone, never on what was written before, so
// that a recording is the same file whoever writes it, and whenever.
func (s *store) target(data []byte) (id uint32, dict []byte, sd *seed, err error) {
	if s.dictID == 0 && s.seeds != nil {
		set, err := s.seeds()
		if err != nil {
			return 0, nil, nil, err
		}
		if sd := set.pick(data); sd != nil {
			return sd.id, sd.data, sd, nil
		}
	}
	return s.dictID, s.dict, nil, nil
}

// packNew compresses a new recording's JSON as the store writes it (see
// target), returning the frame and the ID and bytes of the dictionary it
// names (0 and nil: none).
func (s *store) packNew(data []byte) (frame []byte, id uint32, dict []byte, err error) {
	id, dict, sd, err := s.target(data)
	if err != nil || sd == nil {
		return s.pack(data), id, dict, err
	}
	enc, err := sd.encoder()
	if err != nil {
		return nil, 0, nil, fmt.Errorf("seed dictionary %s: %w", sd.path, err)
	}
	return enc.EncodeAll(data, make([]byte, 0, len(data)/4)), id, dict, nil
}

// haveDict writes the dictionary of ID id into the store should it lack
// it (a seed the store has not used yet, or a dictionary pruned since
// the store was opened), so that no file names a dictionary the store
// lacks.
func (s *store) haveDict(id uint32, dict []byte) error {
	if id == 0 {
		return nil
	}
	if _, err := os.Stat(dictPath(s.dir, id)); errors.Is(err, os.ErrNotExist) {
		return writeNew(dictPath(s.dir, id), dict)
	}
	return nil
}

// read returns the name and JSON of key's recording, the .zst file when
// there is one and the .json file otherwise; ok is false when there is
// neither.
func (s *store) read(key string) (name string, data []byte, ok bool, err error) {
	for _, ext := range [...]string{extZstd, extJSON} {
		name = filepath.Join(s.dir, key+ext)
		data, err = os.ReadFile(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return name, nil, false, fmt.Errorf("reading cassette file: %w", err)
		}
		data, err = s.unpack(name, data)
		return name, data, err == nil, err
	}
	return "", nil, false, nil
}

// write records data, a recording's JSON, as key's .zst file, atomically,
// the dictionary it names written first should the store lack it.
func (s *store) write(key string, data []byte) error {
	frame, id, dict, err := s.packNew(data)
	if err == nil {
		err = s.haveDict(id, dict)
	}
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(s.dir, key+extZstd), frame)
}

// writeFile writes data to name atomically: readers see the old file or
// the whole new one, never a part.
func writeFile(name string, data []byte) (err error) {
	tmp, err := writeTemp(name, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// writeNew writes data to name unless a file is there: several writers
// may race to store one dictionary, and its first copy stays.
func writeNew(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := writeTemp(name, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, name); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// writeTemp writes data, synced, to a temporary file beside name.
func writeTemp(name string, data []byte) (tmpName string, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("writing %s: %w", name, err)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return "", err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		return "", err
	}
	return tmp.Name(), tmp.Close()
}

// Training a dictionary. A recording is mostly a workflow's prompt: its
// instructions, tool declarations and the scene in its words, the same
// from one episode to the next but for the scene. zstd's own trainer
// (COVER) picks the most common segments; klauspost/compress's BuildDict
// builds the entropy tables over a history chosen by the caller. The
// history here is recordings spread evenly over the store's key order
// (keys are hashes, so that is a draw at random, and the same draw for
// the same store), most of them whole. On a tabletop grid of the nine LLM
// workflows this gave a recording of 250 bytes against 1,450 compressed
// alone; klauspost/compress's own history builder (package dict) gave
// 750. The history's size: on BenchmarkCassetteStore's grid a history of
// 256 KiB kept the recordings in 2,317 bytes an episode, 512 KiB in
// 1,997 and 1 MiB in 1,792; each doubling costs the store its size once,
// so 512 KiB pays from about 800 episodes and 1 MiB only from about
// 2,600. (Compact weighs a dictionary's size before it writes one.)
const (
	historyBytes = 512 << 10 // the dictionary's history
	minTrain     = 64 << 10  // below this, samples train no dictionary
	maxContents  = 300       // recordings the entropy tables are built from
)

// trainDict builds a dictionary of up to history bytes of history from
// samples, recordings' JSON in key order, or returns nil when they are
// too few to be worth one or too alike to build one from.
func trainDict(samples [][]byte, history int) ([]byte, uint32, error) {
	total := 0
	for _, b := range samples {
		total += len(b)
	}
	if total < minTrain {
		return nil, 0, nil
	}
	step := max(1, total/history)
	var hist []byte
	for i := 0; i < len(samples) && len(hist) < history; i += step {
		hist = append(hist, samples[i]...)
	}
	// The end of the history is the cheapest to refer to: keep it.
	hist = hist[max(0, len(hist)-history):]
	var contents [][]byte
	for i := 0; i < len(samples); i += max(1, len(samples)/maxContents) {
		contents = append(contents, samples[i])
	}
	// The ID is drawn from the history, so that the same samples give the
	// same dictionary, and two stores' dictionaries differ in ID when
	// they differ at all (but for a chance of one in two billion, which
	// the reader still catches: a frame with the wrong dictionary fails
	// its checksum).
	sum := sha256.Sum256(hist)
	id := minDictID + binary.BigEndian.Uint32(sum[:4])%(maxDictID-minDictID+1)
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{
		ID: id, Contents: contents, History: hist, Offsets: [3]int{1, 4, 8},
		Level: zstd.SpeedBetterCompression,
	})
	if err != nil {
		// BuildDict fails on samples with nothing left to code once the
		// history is matched ("0 literals found"): recordings that alike
		// compress well enough without one.
		return nil, 0, nil
	}
	return dict, id, nil
}
