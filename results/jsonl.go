package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"sync"
)

// maxLine is the longest line, newline excluded, that [ReadRecords] accepts
// and [Writer.Write] produces.
const maxLine = 16 << 20

// ErrTruncated is wrapped by the error [ReadRecords] returns when the last line
// has no trailing newline and is not complete JSON — what a run killed in the
// middle of a write leaves behind. The records before it are complete and are
// returned with the error.
var ErrTruncated = errors.New("truncated last line")

// Writer writes records as JSON Lines. Each record is encoded in full and
// handed to the underlying writer in a single Write call, newline included,
// so a killed process leaves at most one partial line. A Writer is safe for
// concurrent use. After a failed write it refuses further records, since the
// output may end in a partial line.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder // encodes into buf
	err error         // sticky error of a failed write
}

// NewWriter returns a Writer that writes JSON Lines to w. If w has a
// Flush() error method (a *bufio.Writer, for one), it is flushed after each
// record. No fsync is done per record; to make an *os.File durable, Sync it
// when done (the closer from [OpenAppend] does).
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// Write writes r as one JSON line (object keys in a fixed order) and flushes.
// A zero Schema is set to [SchemaVersion]; a record that does not pass
// [Record.Validate] is refused, so that everything written can be read back.
func (w *Writer) Write(r Record) error {
	if r.Schema == 0 {
		r.Schema = SchemaVersion
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("write record %s: %w", r.Key(), err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return fmt.Errorf("write record %s: earlier write failed: %w", r.Key(), w.err)
	}
	w.buf.Reset()
	if w.enc == nil { // one encoder for every record, writing into buf
		w.enc = json.NewEncoder(&w.buf)
		w.enc.SetEscapeHTML(false)
	}
	if err := w.enc.Encode(r); err != nil { // Encode appends the newline
		return fmt.Errorf("write record %s: encode: %w", r.Key(), err)
	}
	if w.buf.Len()-1 > maxLine {
		return fmt.Errorf("write record %s: encoded line is %d bytes, longer than the %d that can be read back", r.Key(), w.buf.Len()-1, maxLine)
	}
	if _, err := w.w.Write(w.buf.Bytes()); err != nil {
		w.err = err
		return fmt.Errorf("write record %s: %w", r.Key(), err)
	}
	if f, ok := w.w.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			w.err = err
			return fmt.Errorf("write record %s: flush: %w", r.Key(), err)
		}
	}
	return nil
}

// ReadRecords reads JSON Lines of records from r; name (usually the file's
// path) prefixes errors. Blank lines are skipped. Each record must decode
// strictly (no unknown fields, right types) and pass [Record.Validate]; the
// first line that does not gives an error "name:LINE: message" and no records.
//
// A last line without a trailing newline that is not complete JSON is the
// mark of a killed run: ReadRecords then returns every record before it and
// an error that wraps [ErrTruncated]. A last line without a newline that is a
// complete, valid record is accepted.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	res, err := readRecords(r, name, nil)
	return res.recs, err
}

// ReadRecordsFunc is [ReadRecords] that also calls check on each record
// with its line number (from 1), in order; the first error check returns
// is given as "name:LINE: error", with no records. A run's readers check
// each record against the run it belongs to ([RunFile.CheckRecord]) and
// refuse an episode recorded twice ([OnceEach]), so that a bad line is
// named where it is rather than reported on, or dropped, in silence.
func ReadRecordsFunc(r io.Reader, name string, check func(line int, rec Record) error) ([]Record, error) {
	res, err := readRecords(r, name, check)
	return res.recs, err
}

// OnceEach returns a check for [ReadRecordsFunc] that refuses a record of
// an episode (its [Record.Key]) that an earlier line holds: a run records
// each episode once, and of two records one would count twice or be
// dropped unseen. A report and a comparison refuse the same in the
// records they are given ([FirstDuplicate]).
//
// It keeps 24 bytes an episode, not the key: two 64-bit hashes of the key
// under independent seeds, which two different episodes share with a
// chance of about n²/2¹²⁹ — none, at any run's size.
func OnceEach() func(line int, rec Record) error {
	first := map[[2]uint64]int{}
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	return func(line int, rec Record) error {
		k := rec.Key()
		h := [2]uint64{maphash.String(seeds[0], k), maphash.String(seeds[1], k)}
		if at, dup := first[h]; dup {
			return fmt.Errorf("episode %s appears twice, first at line %d (a run records each episode once)", k, at)
		}
		first[h] = line
		return nil
	}
}

// FirstDuplicate finds the first record of recs whose episode (its
// [Record.Key]) an earlier record has: it returns the key and the two
// indices, or ok false when every episode is there once.
func FirstDuplicate(recs []Record) (key string, first, again int, ok bool) {
	seen := make(map[string]int, len(recs))
	for i, r := range recs {
		k := r.Key()
		if j, dup := seen[k]; dup {
			return k, j, i, true
		}
		seen[k] = i
	}
	return "", 0, 0, false
}

// tail says what follows the last complete (newline-terminated) line.
type tail int

const (
	tailNone      tail = iota // input ends with a newline, or is empty
	tailBlank                 // only whitespace after the last newline
	tailRecord                // a valid record without a trailing newline
	tailTruncated             // incomplete JSON without a trailing newline
)

type readResult struct {
	recs     []Record
	complete int64 // bytes up to and including the last newline
	tail     tail
}

// ScanRecords reads JSON Lines of records from r as [ReadRecordsFunc]
// does, but keeps none: it hands each record, in order, to each, and
// returns how many it handed. Memory stays that of one line, however
// long the file: the way to read a run too large to hold (report,
// compare and merge read records so). An error from check or each stops
// the scan and is given as "name:LINE: error"; the records handed before
// it were read whole, and what to do with them is the caller's. A last
// line cut short by a killed run gives an error wrapping [ErrTruncated]
// after every record before it was handed.
func ScanRecords(r io.Reader, name string, check func(line int, rec Record) error, each func(rec Record) error) (int, error) {
	return ScanRecordsAt(r, name, check, func(rec Record, _ LineAt) error { return each(rec) })
}

// LineAt is where a record's line is in the file [ScanRecordsAt] read
// it from: its number (from 1), and its first byte and length, newline
// included. A reader that must hand a file's records in another order
// than the file's keeps this much of each, not the record, and reads
// each again with [ReadRecordAt].
type LineAt struct {
	Off  int64
	Size int32
	Line int32
}

// ScanRecordsAt is [ScanRecords] that also hands each record's place in
// the file.
func ScanRecordsAt(r io.Reader, name string, check func(line int, rec Record) error, each func(rec Record, at LineAt) error) (int, error) {
	n := 0
	_, err := scanRecords(r, name, check, func(rec Record, at LineAt) error {
		if err := each(rec, at); err != nil {
			return fmt.Errorf("%s:%d: %w", name, at.Line, err)
		}
		n++
		return nil
	})
	return n, err
}

// ReadRecordAt reads again the record of the line at, as [ScanRecordsAt]
// handed it from the file r holds; name (the file's path) and the line
// number prefix an error, as the scan's do.
func ReadRecordAt(r io.ReaderAt, name string, at LineAt) (Record, error) {
	b := make([]byte, at.Size)
	if _, err := r.ReadAt(b, at.Off); err != nil {
		return Record{}, fmt.Errorf("%s:%d: %w", name, at.Line, err)
	}
	rec, err := decodeRecord(bytes.TrimSpace(b))
	if err != nil {
		return Record{}, fmt.Errorf("%s:%d: %w", name, at.Line, err)
	}
	return rec, nil
}

func readRecords(r io.Reader, name string, check func(int, Record) error) (readResult, error) {
	var recs []Record
	res, err := scanRecords(r, name, check, func(rec Record, _ LineAt) error {
		recs = append(recs, rec)
		return nil
	})
	if err != nil && !errors.Is(err, ErrTruncated) {
		return readResult{}, err
	}
	res.recs = recs
	return res, err
}

func scanRecords(r io.Reader, name string, check func(int, Record) error, each func(Record, LineAt) error) (readResult, error) {
	var res readResult
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+2) // room for "\r\n"
	sc.Split(scanLinesWithNewline)
	line := 0
	var off int64
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		at := LineAt{Off: off, Size: int32(len(raw)), Line: int32(line)}
		off += int64(len(raw))
		terminated := raw[len(raw)-1] == '\n'
		text := bytes.TrimSpace(raw)
		if terminated {
			res.complete += int64(len(raw))
		}
		if len(text) == 0 {
			if !terminated {
				res.tail = tailBlank
			}
			continue
		}
		if !terminated && !json.Valid(text) {
			res.tail = tailTruncated
			return res, fmt.Errorf("%s:%d: %w: %d bytes of incomplete JSON without a newline (a killed run?)", name, line, ErrTruncated, len(raw))
		}
		rec, err := decodeRecord(text)
		if err == nil && check != nil {
			err = check(line, rec)
		}
		if err != nil {
			return readResult{}, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := each(rec, at); err != nil {
			return readResult{}, err
		}
		if !terminated {
			res.tail = tailRecord
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return readResult{}, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxLine)
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return readResult{}, err // names the file already
		}
		return readResult{}, fmt.Errorf("read %s: %w", name, err)
	}
	return res, nil
}

// scanLinesWithNewline is bufio.ScanLines that keeps the newline, so the
// reader can tell a complete last line from a partial one.
func scanLinesWithNewline(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// decodeRecord decodes one line strictly and validates the record. Errors
// name the field and what was expected.
func decodeRecord(text []byte) (Record, error) {
	var rec Record
	if !fastDecode(text, &rec) {
		var err error
		if rec, err = decodeRecordJSON(text); err != nil {
			return Record{}, err
		}
	}
	if err := rec.Validate(); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// decodeRecordJSON decodes a line with encoding/json, unknown fields
// refused: what [fastDecode] leaves to it, and what it is held to.
func decodeRecordJSON(text []byte) (Record, error) {
	var rec Record
	if !json.Valid(text) {
		var raw json.RawMessage
		err := json.Unmarshal(text, &raw)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return rec, fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, se.Error())
		}
		return rec, fmt.Errorf("invalid JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, describeDecodeError(err)
	}
	return rec, nil
}

func describeDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Errorf("expected a JSON object (a record), got %s", te.Value)
		}
		return fmt.Errorf("field %q: expected %s, got %s", te.Field, jsonTypeName(te.Type), te.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if f, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return fmt.Errorf("field %s: unknown field (schema v%d)", f, SchemaVersion)
	}
	return errors.New(msg)
}

// jsonTypeName names a Go type by what it takes in JSON.
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "a different type"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "non-negative int"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "string"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return t.String()
}

// OpenAppend opens the results file at path for a resumed run, creating it
// if need be. It returns a Writer that appends to it, the records already in
// it, and a Closer that syncs and closes the file.
//
// If the run that wrote the file was killed mid-write, the partial last line
// is cut off (the file is truncated to the end of the last complete line), so
// nothing recorded whole is lost and the partial record is dropped; its
// episode is not among the records returned and will be run again. A last
// record lacking only its newline is kept and the newline is added. Any other
// malformed line is an error and the file is left as it is.
func OpenAppend(path string) (*Writer, []Record, io.Closer, error) {
	return OpenAppendFunc(path, nil)
}

// OpenAppendFunc is [OpenAppend] that checks each record already in the
// file as [ReadRecordsFunc] does; a record check refuses is an error
// naming its line, and the file is left as it is.
func OpenAppendFunc(path string, check func(line int, rec Record) error) (*Writer, []Record, io.Closer, error) {
	var recs []Record
	w, _, c, err := OpenAppendScan(path, check, func(rec Record) error {
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return w, recs, c, nil
}

// OpenAppendScan is [OpenAppendFunc] that keeps none of the records
// already in the file: it hands each, in order, to each (as
// [ScanRecords] does), and returns how many it handed. A resumed run
// reads so what it needs of its earlier records (which jobs are done,
// their tallies) without holding them. An error from each, given as
// "path:LINE: error", leaves the file as it is.
func OpenAppendScan(path string, check func(line int, rec Record) error, each func(rec Record) error) (*Writer, int, io.Closer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("open results: %w", err)
	}
	n := 0
	res, err := scanRecords(f, path, check, func(rec Record, at LineAt) error {
		if err := each(rec); err != nil {
			return fmt.Errorf("%s:%d: %w", path, at.Line, err)
		}
		n++
		return nil
	})
	if err != nil && !errors.Is(err, ErrTruncated) {
		f.Close()
		return nil, 0, nil, fmt.Errorf("open results: %w", err)
	}
	switch res.tail {
	case tailTruncated, tailBlank:
		err = f.Truncate(res.complete)
	case tailRecord:
		_, err = f.Write([]byte{'\n'}) // O_APPEND: goes to the end
	}
	if err != nil {
		f.Close()
		return nil, 0, nil, fmt.Errorf("open results %s: repair last line: %w", path, err)
	}
	return NewWriter(f), n, syncCloser{f}, nil
}

// syncCloser syncs a file to stable storage before closing it.
type syncCloser struct{ f *os.File }

func (c syncCloser) Close() error {
	return errors.Join(c.f.Sync(), c.f.Close())
}

// RewriteRecords replaces the results file at path with recs: written to a
// temporary file beside it, synced, then renamed over it, so that a crash
// leaves either the old file or the new one. A resumed run uses it to drop
// the records it is about to run again (those of infrastructure failures).
func RewriteRecords(path string, recs []Record) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("rewrite results: %w", err)
	}
	bw := bufio.NewWriter(f)
	w := NewWriter(bw)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			f.Close()
			os.Remove(tmp)
			return fmt.Errorf("rewrite results %s: %w", path, err)
		}
	}
	if err := errors.Join(bw.Flush(), f.Sync(), f.Close()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rewrite results %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rewrite results: %w", err)
	}
	return nil
}

// AppendTo opens the results file at path (made if absent) for
// appending, once its records have been read ([ScanRecords]): it mends
// the last line as [OpenAppendScan] does — a line a killed run cut short
// is cut off, and a whole record without its newline gets one — reading
// only that line. A resumed run reads its records, checks the rest of
// what it is given, and changes its files only then.
func AppendTo(path string) (*Writer, io.Closer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open results: %w", err)
	}
	if err := mendTail(f); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("open results %s: repair last line: %w", path, err)
	}
	return NewWriter(f), syncCloser{f}, nil
}

// mendTail mends the last line of f, as scanRecords judges it: no newline
// after it and blank or not whole JSON, it is cut off; a whole record, it
// gets its newline.
func mendTail(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	size := info.Size()
	// The last line starts after the last newline, at most a line's
	// length before the end.
	start := max(0, size-(maxLine+2))
	buf := make([]byte, size-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if len(buf) == 0 || buf[len(buf)-1] == '\n' {
		return nil
	}
	nl := bytes.LastIndexByte(buf, '\n')
	tail := buf[nl+1:]
	if text := bytes.TrimSpace(tail); len(text) > 0 && json.Valid(text) {
		_, err = f.Write([]byte{'\n'}) // O_APPEND: goes to the end
		return err
	}
	return f.Truncate(start + int64(nl+1))
}
