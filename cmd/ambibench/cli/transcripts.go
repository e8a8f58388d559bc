package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents/llm/imagefile"
)

// transcriptFileName is the file of a run's model calls (run
// --transcripts), one JSON line a call (middleware.TranscriptEntry).
const transcriptFileName = "transcripts.jsonl"

// A transcript holds each kept episode's calls once.
//
// Lines are written as the calls are made, while records are written once
// an episode ends; so a run killed or interrupted leaves the calls of the
// episodes in flight with no record, and a resumed run drops the records
// of infrastructure errors to play them again. Either way the episode is
// played again and its calls logged anew. The cause is that the
// transcript, unlike records.jsonl, kept what its episode's record did
// not: so a resumed run first drops the lines of every episode that has
// no record in the file ([runDir.openTranscript]), as merge does with a
// shard's ([mergeTranscripts]).
//
// Calls of no record (the calibration split that clara fits its threshold
// on, "calibration/…", made again by each run that plays clara; a call
// outside an episode) are kept, and logged again only when they differ:
// a call equal to one already in the file in everything but its latency
// (the same request, and the same reply from a deterministic model or a
// cassette) is not written twice. A live model sampled anew gives another
// reply, and that call is kept beside the first: both were made.

// transcriptEpisode is the episode a transcript line names ("" for a
// call outside an episode).
func transcriptEpisode(line []byte) (string, error) {
	// Lines begin {"episode":"…" (TranscriptEntry's first field): read
	// just that, rather than decode a line of tens of kilobytes.
	const head = `{"episode":`
	if rest, ok := bytes.CutPrefix(line, []byte(head)); ok {
		if q, err := strconv.QuotedPrefix(string(rest[:min(len(rest), 4096)])); err == nil {
			if ep, err := strconv.Unquote(q); err == nil {
				return ep, nil
			}
		}
	}
	var e struct {
		Episode *string `json:"episode"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return "", fmt.Errorf("not a transcript line: %v", err)
	}
	if e.Episode == nil {
		return "", errors.New(`not a transcript line: no "episode"`)
	}
	return *e.Episode, nil
}

// ofRecord reports whether a transcript's episode name is a record's key:
// bench names each episode's calls by its job's key (bench.EpisodeContext),
// whose names are quoted ("tabletop"/…); the calibration split's calls
// ("calibration/clara/sim") and calls outside an episode ("") belong to
// no record.
func ofRecord(episode string) bool { return len(episode) > 0 && episode[0] == '"' }

// cancelled reports whether a transcript line is of a call cut short by
// the run's own stop (an interrupt): like an episode in flight then, the
// call is made again by the run that resumes, and the line is dropped.
func cancelled(line []byte) bool {
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(line, &e) == nil && strings.HasSuffix(e.Error, context.Canceled.Error())
}

// stale reports whether a resumed run or a merge drops a transcript line:
// a partial or blank one, one of an episode without a record kept, or a
// call of no record that the run's stop cut short.
func stale(line []byte, ep string, partial bool, kept func(string) bool) bool {
	switch {
	case partial || len(bytes.TrimSpace(line)) == 0:
		return true
	case ofRecord(ep):
		return !kept(ep)
	}
	return cancelled(line)
}

// latencies matches the latency fields of a transcript line: the call's
// and its reply's. Inside a JSON string a quote is escaped, so the
// pattern cannot match a prompt's text.
var latencies = regexp.MustCompile(`"latency_ns":-?[0-9]+`)

// callDigest names a transcript line by all but its latencies: two lines
// of one digest are one call made twice with the same reply.
func callDigest(line []byte) [sha256.Size]byte {
	return sha256.Sum256(latencies.ReplaceAll(bytes.TrimRight(line, "\r\n"), nil))
}

// scanTranscript calls fn with each line of the transcript at path (its
// newline included), its number from 1 and its episode, in order. A last
// line without a newline that is not JSON (a run killed mid-write) is
// passed as a partial line (ep "", partial true); any other line that
// does not read is an error naming path:line. A file that is not there
// has no lines.
func scanTranscript(path string, fn func(line []byte, n int, ep string, partial bool) error) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			text := bytes.TrimSpace(line)
			switch {
			case len(text) == 0:
				if ferr := fn(line, n, "", false); ferr != nil {
					return ferr
				}
			case line[len(line)-1] != '\n' && !json.Valid(text):
				if ferr := fn(line, n, "", true); ferr != nil {
					return ferr
				}
			default:
				ep, perr := transcriptEpisode(text)
				if perr != nil {
					return fmt.Errorf("%s:%d: %w", path, n, perr)
				}
				if ferr := fn(line, n, ep, false); ferr != nil {
					return ferr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return err // names the file already
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// transcriptSink is the transcript file of a run as the models write it:
// opened once the records kept are known ([runDir.openTranscript]), it
// writes each line whole, and leaves out a call of no record that the
// file already held before this run (see above). Lines come one Write
// each (middleware.Transcript).
type transcriptSink struct {
	mu    sync.Mutex
	f     *os.File
	prior map[[sha256.Size]byte]int // calls of no record the file held, by digest, not yet made again
}

func (s *transcriptSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return 0, errors.New("the transcript file is not open")
	}
	if ep, err := transcriptEpisode(bytes.TrimSpace(p)); err == nil && !ofRecord(ep) && len(s.prior) > 0 {
		d := callDigest(p)
		if s.prior[d] > 0 {
			s.prior[d]--
			return len(p), nil
		}
	}
	return s.f.Write(p)
}

// Close syncs and closes the file, if it was opened.
func (s *transcriptSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := errors.Join(s.f.Sync(), s.f.Close())
	s.f = nil
	return err
}

// checkTranscript reads DIR/transcripts.jsonl, once openRecords has read
// the records kept, changing nothing: it refuses a damaged line, naming
// it, and finds the lines an earlier run left of an episode with no
// record kept (in flight at a kill or an interrupt, or an infrastructure
// error dropped to be played again), which commit drops (the file
// rewritten whole, to a temporary file, then renamed) so that each kept
// episode's calls are in it once, and the calls of no record already
// there, which are not logged again (see [transcriptSink]).
func (d *runDir) checkTranscript() error {
	d.transcriptPrior, d.transcriptDrop = map[[sha256.Size]byte]int{}, 0
	if d.fresh {
		return nil
	}
	path := filepath.Join(d.dir, transcriptFileName)
	err := scanTranscript(path, func(line []byte, _ int, ep string, partial bool) error {
		switch {
		case stale(line, ep, partial, d.kept):
			d.transcriptDrop++
		case !ofRecord(ep):
			d.transcriptPrior[callDigest(line)]++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("transcripts: %w", err)
	}
	return nil
}

// openTranscript drops the stale lines checkTranscript found and opens
// DIR/transcripts.jsonl for this run's calls, into sink (commit's last
// step).
func (d *runDir) openTranscript(sink *transcriptSink) error {
	path := filepath.Join(d.dir, transcriptFileName)
	if d.transcriptDrop > 0 {
		err := rewriteFile(path, func(w io.Writer) error {
			return scanTranscript(path, func(line []byte, _ int, ep string, partial bool) error {
				if stale(line, ep, partial, d.kept) {
					return nil
				}
				_, err := w.Write(line)
				return err
			})
		})
		if err != nil {
			return fmt.Errorf("transcripts: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	sink.mu.Lock()
	sink.f, sink.prior = f, d.transcriptPrior
	sink.mu.Unlock()
	return nil
}

// rewriteFile replaces the file at path with what write writes: to a
// temporary file beside it, synced, then renamed over it, so that a crash
// leaves the old file or the new one.
func rewriteFile(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	if err := writeSynced(tmp, write); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeSynced writes the file at path anew with what write writes, and
// syncs it; when either fails, the file is removed.
func writeSynced(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := errors.Join(bw.Flush(), f.Sync(), f.Close()); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// mergeTranscripts writes OUT/transcripts.jsonl from the shards' (dirs,
// in the order given), each line once and in an order fixed by the shards
// alone: first the calls of no record, shard by shard, each call made
// alike in several shards (the calibration split each made) once; then
// the calls of each episode, in the merged records' order (find gives the
// place of an episode's record by its key), each episode's in the order
// made. The lines of an episode without a record are left out, as a
// resumed run drops them. The images the transcripts name are copied from
// each shard's images directory. Each file or directory it makes in out
// is passed to made first, for a merge that fails to remove. It returns
// the shards that kept transcripts; none writes no file.
func mergeTranscripts(out string, dirs []string, find func(key string) (keyPlace, bool), made func(path string)) (with []string, err error) {
	type line struct {
		pos       keyPlace // k -1: a call of no record
		shard, n  int
		off, size int64
	}
	var lines []line
	emitted := map[[sha256.Size]byte]int{} // calls of no record, by digest: how many kept
	for si, dir := range dirs {
		path := filepath.Join(dir, transcriptFileName)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		with = append(with, dir)
		var off int64
		here := map[[sha256.Size]byte]int{}
		err := scanTranscript(path, func(b []byte, n int, ep string, partial bool) error {
			at := off
			off += int64(len(b))
			var pos keyPlace
			if stale(b, ep, partial, func(ep string) (ok bool) { pos, ok = find(ep); return ok }) {
				return nil
			}
			if ofRecord(ep) {
				lines = append(lines, line{pos, si, n, at, int64(len(b))})
				return nil
			}
			d := callDigest(b)
			here[d]++
			if here[d] > emitted[d] {
				emitted[d] = here[d]
				lines = append(lines, line{keyPlace{-1, 0}, si, n, at, int64(len(b))})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(with) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		return cmp.Or(cmp.Compare(a.pos.k, b.pos.k), cmp.Compare(a.pos.rank, b.pos.rank), cmp.Compare(a.shard, b.shard), cmp.Compare(a.n, b.n))
	})
	files := make([]*os.File, len(dirs))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for _, dir := range with {
		if err := copyImages(dir, out, made); err != nil {
			return nil, err
		}
	}
	made(filepath.Join(out, transcriptFileName))
	err = rewriteFile(filepath.Join(out, transcriptFileName), func(w io.Writer) error {
		for _, l := range lines {
			f := files[l.shard]
			if f == nil {
				var err error
				if f, err = os.Open(filepath.Join(dirs[l.shard], transcriptFileName)); err != nil {
					return err
				}
				files[l.shard] = f
			}
			b := make([]byte, l.size)
			if _, err := f.ReadAt(b, l.off); err != nil {
				return fmt.Errorf("%s:%d: %w", f.Name(), l.n, err)
			}
			if b[len(b)-1] != '\n' {
				b = append(b, '\n') // a whole last line without its newline
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
	return with, err
}

// copyImages copies the images a run directory keeps for its transcripts
// (DIR/images, named by digest) into out's, each that out lacks, passing
// made each file, and out's images directory if it makes it, first.
func copyImages(dir, out string, made func(path string)) error {
	from := filepath.Join(dir, imagefile.Dir)
	entries, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	to := filepath.Join(out, imagefile.Dir)
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name()[0] == '.' {
			continue // a directory, or a temporary file of a store cut short
		}
		dest := filepath.Join(to, e.Name())
		if _, err := os.Stat(dest); err == nil {
			continue // named by digest: the same image
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if _, err := os.Stat(to); errors.Is(err, fs.ErrNotExist) {
			made(to)
		}
		if err := os.MkdirAll(to, 0o755); err != nil {
			return err
		}
		made(dest)
		if err := rewriteFile(dest, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}
