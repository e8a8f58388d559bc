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

	mu       sync.Mutex
	decoders map[uint32]*zstd.Decoder

	// The encoder of new recordings, with the dictionary the store named
	// current when it was opened (dictID 0: none), and that dictionary's
	// bytes, to put back should it be pruned while this store writes.
	enc    *zstd.Encoder
	dictID uint32
	dict   []byte
}

// openStore opens dir's recordings for reading and writing, new ones
// compressed with the dictionary dir names current, if any.
func openStore(dir string) (*store, error) {
	s := &store{dir: dir, decoders: map[uint32]*zstd.Decoder{}}
	id, err := currentDict(dir)
	if err != nil {
		return nil, err
	}
	if id != 0 {
		if s.dict, err = readDict(dir, id); err != nil {
			return nil, err
		}
	}
	if err := s.useDict(id, s.dict); err != nil {
		return nil, err
	}
	return s, nil
}

// useDict makes dict (ID id, or none when id is 0) the one new recordings
// are compressed with.
func (s *store) useDict(id uint32, dict []byte) error {
	opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1)}
	if id != 0 {
		opts = append(opts, zstd.WithEncoderDict(dict))
	}
	enc, err := zstd.NewWriter(nil, opts...)
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
			return nil, err
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

// pack compresses a recording's JSON as the store writes it.
func (s *store) pack(data []byte) []byte {
	return s.enc.EncodeAll(data, make([]byte, 0, len(data)/4))
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

// write records data, a recording's JSON, as key's .zst file, atomically.
// The dictionary it is compressed with is put back first should it have
// been pruned since the store was opened, so that no file names a
// dictionary the directory lacks.
func (s *store) write(key string, data []byte) error {
	if s.dictID != 0 {
		if _, err := os.Stat(dictPath(s.dir, s.dictID)); errors.Is(err, os.ErrNotExist) {
			if err := writeNew(dictPath(s.dir, s.dictID), s.dict); err != nil {
				return err
			}
		}
	}
	return writeFile(filepath.Join(s.dir, key+extZstd), s.pack(data))
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
// 750, a history of 112 KiB 310, and one of 1 MiB 205 bytes but four
// times the dictionary.
const (
	historyBytes = 256 << 10 // the dictionary's history
	minTrain     = 64 << 10  // below this, samples train no dictionary
	maxContents  = 300       // recordings the entropy tables are built from
)

// trainDict builds a dictionary from samples, recordings' JSON in key
// order, or returns nil when they are too few to be worth one or too
// alike to build one from.
func trainDict(samples [][]byte) ([]byte, uint32, error) {
	total := 0
	for _, b := range samples {
		total += len(b)
	}
	if total < minTrain {
		return nil, 0, nil
	}
	step := max(1, total/historyBytes)
	var hist []byte
	for i := 0; i < len(samples) && len(hist) < historyBytes; i += step {
		hist = append(hist, samples[i]...)
	}
	// The end of the history is the cheapest to refer to: keep it.
	hist = hist[max(0, len(hist)-historyBytes):]
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
