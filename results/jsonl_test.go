package results

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// encodeLines writes recs with a Writer and returns the bytes.
func encodeLines(t testing.TB, recs ...Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	return buf.Bytes()
}

func episode(i int) Record {
	r := validRecord()
	r.Episode = i
	return r
}

func TestWriteReadRoundTrip(t *testing.T) {
	t.Parallel()
	full := validRecord()
	full.Messages = []Message{{From: "alice", To: "bob", Text: "do you see a red block?", Reply: "yes"}}
	full.ActedBy = []string{"bob", "alice"}
	full.Error = "model reply: <not json> & more" // HTML characters stay as they are
	full.Success = true
	full.WallMS = 12.25
	full.Seed = 1<<64 - 1
	full.Trials, full.Reflections, full.ReflectionTokens = 3, 2, 30
	full.ReflectionTools = map[string]int{"lesson": 1, "plan": 2}
	full.ReflectionTokenCounts = []int{10, 20}
	noSchema := validRecord()
	noSchema.Schema = 0 // Write fills it in
	minimal := Record{Suite: 1, Outcome: OutcomeScored, Track: "tabletop", Family: "f", Perturbation: "none", Agent: "oracle"}

	data := encodeLines(t, full, noSchema, minimal)
	got, err := ReadRecords(bytes.NewReader(data), "mem")
	if err != nil {
		t.Fatalf("ReadRecords: %v", err)
	}
	noSchema.Schema = SchemaVersion
	minimal.Schema = SchemaVersion
	want := []Record{full, noSchema, minimal}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\ngot  %+v\nwant %+v", got, want)
	}
	if n := bytes.Count(data, []byte("\n")); n != 3 {
		t.Errorf("wrote %d lines, want 3:\n%s", n, data)
	}
	if !bytes.Contains(data, []byte(`<not json> & more`)) {
		t.Errorf("HTML characters were escaped:\n%s", data)
	}
}

// TestWriteDeterministic: the same record gives the same bytes, whatever the
// order its map was filled in.
func TestWriteDeterministic(t *testing.T) {
	t.Parallel()
	a, b := validRecord(), validRecord()
	a.ToolCalls = map[string]int{"z": 1, "a": 2, "m": 3}
	b.ToolCalls = map[string]int{"m": 3, "a": 2, "z": 1}
	if x, y := encodeLines(t, a), encodeLines(t, b); !bytes.Equal(x, y) {
		t.Fatalf("different bytes:\n%s\n%s", x, y)
	}
	want := `{"schema":2,"suite":1,"outcome":"scored","track":"tabletop","family":"pick_place","perturbation":"absence","label":"absence","agent":"sgcot","model":"sim","seed":42,"episode":7,"instruction":"put the red block in the blue bowl","asked":true,"tag":"absence","questions":1,"tag_correct":1,"success":false,"ada":true,"steps":4,"tool_calls":{"ask":1,"retrieve_node":3},"wall_ms":1.5}` + "\n"
	if got := string(encodeLines(t, validRecord())); got != want {
		t.Errorf("line:\ngot  %s\nwant %s", got, want)
	}
}

// TestWriterReusesNothingVisible: one Writer, its encoder and buffer
// reused, writes each record as a Writer of its own would, whatever came
// before it (a longer record, a refused one).
func TestWriterReusesNothingVisible(t *testing.T) {
	t.Parallel()
	long := episode(1)
	long.Instruction = strings.Repeat("put the red block in the blue bowl, ", 200)
	long.Messages = []Message{{From: "robot a", To: "robot b", Text: strings.Repeat("x", 500)}}
	short := episode(2)
	bad := episode(3)
	bad.Outcome = "nonsense"
	var cw countingWriter
	w := NewWriter(&cw)
	for i, r := range []Record{long, short, bad, short, long} {
		err := w.Write(r)
		if (err != nil) != (i == 2) {
			t.Fatalf("record %d: error %v", i, err)
		}
	}
	want := [][]byte{encodeLines(t, long), encodeLines(t, short), encodeLines(t, short), encodeLines(t, long)}
	if len(cw.calls) != len(want) {
		t.Fatalf("%d lines written, want %d", len(cw.calls), len(want))
	}
	for i := range want {
		if !bytes.Equal(cw.calls[i], want[i]) {
			t.Errorf("line %d:\ngot  %.200s\nwant %.200s", i, cw.calls[i], want[i])
		}
	}
}

// countingWriter records each Write call.
type countingWriter struct {
	calls [][]byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.calls = append(c.calls, bytes.Clone(p))
	return len(p), nil
}

func TestWriterOneWritePerRecord(t *testing.T) {
	t.Parallel()
	var cw countingWriter
	w := NewWriter(&cw)
	for i := range 3 {
		if err := w.Write(episode(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(cw.calls) != 3 {
		t.Fatalf("%d Write calls for 3 records, want 3", len(cw.calls))
	}
	for i, p := range cw.calls {
		if bytes.Count(p, []byte("\n")) != 1 || p[len(p)-1] != '\n' {
			t.Errorf("call %d is not exactly one whole line: %q", i, p)
		}
	}
}

func TestWriterFlushesBufio(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	bw := bufio.NewWriterSize(&out, 1<<20) // large: nothing would reach out without a flush
	w := NewWriter(bw)
	if err := w.Write(validRecord()); err != nil {
		t.Fatal(err)
	}
	if out.Len() == 0 || bw.Buffered() != 0 {
		t.Fatalf("record not flushed: %d bytes out, %d buffered", out.Len(), bw.Buffered())
	}
}

func TestWriterRefusesInvalid(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	r := validRecord()
	r.Agent = ""
	err := w.Write(r)
	if err == nil || !strings.Contains(err.Error(), `field "agent"`) {
		t.Fatalf("Write(invalid) = %v, want an error naming the agent field", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("invalid record was written: %q", buf.String())
	}
	// The writer is still usable: refusing a record wrote nothing.
	if err := w.Write(validRecord()); err != nil {
		t.Fatalf("Write after a refused record: %v", err)
	}
}

// failingWriter writes half of what it is given, then fails.
type failingWriter struct{ bytes.Buffer }

func (f *failingWriter) Write(p []byte) (int, error) {
	n, _ := f.Buffer.Write(p[:len(p)/2])
	return n, errors.New("disk full")
}

func TestWriterStickyError(t *testing.T) {
	t.Parallel()
	var fw failingWriter
	w := NewWriter(&fw)
	if err := w.Write(episode(0)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("first Write = %v, want disk full", err)
	}
	before := fw.Len()
	err := w.Write(episode(1))
	if err == nil || !strings.Contains(err.Error(), "earlier write failed") {
		t.Fatalf("second Write = %v, want the earlier failure", err)
	}
	if fw.Len() != before {
		t.Fatalf("second record was glued onto a partial line")
	}
}

func TestWriterConcurrent(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := w.Write(episode(i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	recs, err := ReadRecords(&buf, "mem")
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[int]bool)
	for _, r := range recs {
		seen[r.Episode] = true
	}
	if len(recs) != n || len(seen) != n {
		t.Fatalf("read %d records, %d distinct, want %d", len(recs), len(seen), n)
	}
}

func TestReadRecordsLayout(t *testing.T) {
	t.Parallel()
	line := string(encodeLines(t, episode(0)))
	body := strings.TrimSuffix(line, "\n")
	tests := []struct {
		name  string // why the row exists
		input string
		want  int // records
	}{
		{"empty input has no records", "", 0},
		{"blank lines are skipped", "\n" + line + "\n  \n" + line, 2},
		{"CRLF line ends are accepted", body + "\r\n" + body + "\r\n", 2},
		{"a last record missing only its newline is complete", line + body, 2},
		{"trailing whitespace without a newline is not a truncated record", line + "  ", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadRecords(strings.NewReader(tt.input), "mem")
			if err != nil {
				t.Fatalf("ReadRecords: %v", err)
			}
			if len(recs) != tt.want {
				t.Fatalf("got %d records, want %d", len(recs), tt.want)
			}
		})
	}
}

func TestReadRecordsErrors(t *testing.T) {
	t.Parallel()
	good := string(encodeLines(t, episode(0)))
	// edit returns the good line with old replaced by new.
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in %s", old, good)
		}
		return strings.Replace(good, old, new, 1)
	}
	tests := []struct {
		name      string // why the row exists
		input     string
		want      string // exact error message
		truncated bool
		wantRecs  int // records returned with the error
	}{
		{"wrong type names the field and the expected type, and the line",
			good + good + edit(`"episode":0`, `"episode":"seven"`),
			`out/records.jsonl:3: field "episode": expected int, got string`, false, 0},
		{"fraction where an int is expected",
			edit(`"episode":0`, `"episode":1.5`),
			`out/records.jsonl:1: field "episode": expected int, got number 1.5`, false, 0},
		{"negative seed",
			edit(`"seed":42`, `"seed":-1`),
			`out/records.jsonl:1: field "seed": expected non-negative int, got number -1`, false, 0},
		{"type error inside a nested message names the path",
			edit(`"wall_ms"`, `"messages":[{"from":3}],"wall_ms"`),
			`out/records.jsonl:1: field "messages.from": expected string, got number`, false, 0},
		{"unknown field (a typo) is an error, not silently dropped",
			edit(`"success"`, `"sucess":true,"success"`),
			`out/records.jsonl:1: field "sucess": unknown field (schema v2)`, false, 0},
		{"a line that is not an object",
			"[1,2]\n",
			`out/records.jsonl:1: expected a JSON object (a record), got array`, false, 0},
		{"JSON null decodes to an empty record, which fails validation",
			"null\n",
			`out/records.jsonl:1: field "schema": got 0, want 2`, false, 0},
		{"valid JSON that fails validation",
			edit(`"agent":"sgcot"`, `"agent":""`),
			`out/records.jsonl:1: field "agent": missing or empty`, false, 0},
		{"future schema version",
			edit(`"schema":2`, `"schema":3`),
			`out/records.jsonl:1: field "schema": got 3, want 2`, false, 0},
		{"broken JSON on a complete line is corruption, not truncation",
			good + `{"schema":2,` + "\n" + good,
			`out/records.jsonl:2: invalid JSON at byte 12: unexpected end of JSON input`, false, 0},
		{"two objects on one line",
			strings.TrimSuffix(good, "\n") + " {}\n",
			`out/records.jsonl:1: invalid JSON at byte 381: invalid character '{' after top-level value`, false, 0},
		{"a partial last line is truncation; the records before it are kept",
			good + good + good[:40],
			`out/records.jsonl:3: truncated last line: 40 bytes of incomplete JSON without a newline (a killed run?)`, true, 2},
		{"a partial first and only line is truncation with no records",
			good[:1],
			`out/records.jsonl:1: truncated last line`, true, 0},
		{"valid JSON without a newline that fails validation is not truncation",
			`{"schema":2,"suite":1,"outcome":"scored"}`,
			`out/records.jsonl:1: field "track": missing or empty`, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadRecords(strings.NewReader(tt.input), "out/records.jsonl")
			if err == nil {
				t.Fatalf("ReadRecords = nil error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error:\ngot  %s\nwant %s", err, tt.want)
			}
			if got := errors.Is(err, ErrTruncated); got != tt.truncated {
				t.Errorf("errors.Is(err, ErrTruncated) = %v, want %v", got, tt.truncated)
			}
			if len(recs) != tt.wantRecs {
				t.Errorf("got %d records with the error, want %d", len(recs), tt.wantRecs)
			}
		})
	}
}

func TestReadRecordsLongLine(t *testing.T) {
	t.Parallel()
	good := string(encodeLines(t, episode(0)))
	long := good + `{"instruction":"` + strings.Repeat("x", maxLine) + `"}` + "\n"
	_, err := ReadRecords(strings.NewReader(long), "big.jsonl")
	want := fmt.Sprintf("big.jsonl:2: line longer than %d bytes", maxLine)
	if err == nil || err.Error() != want {
		t.Fatalf("ReadRecords = %v, want %s", err, want)
	}
}

func TestWriterRefusesUnreadableLine(t *testing.T) {
	t.Parallel()
	r := validRecord()
	r.Instruction = strings.Repeat("x", maxLine)
	var buf bytes.Buffer
	if err := NewWriter(&buf).Write(r); err == nil || buf.Len() != 0 {
		t.Fatalf("Write of an over-long record = %v with %d bytes written; want an error and nothing written", err, buf.Len())
	}
}

func TestOpenAppend(t *testing.T) {
	t.Parallel()
	line := func(i int) string { return string(encodeLines(t, episode(i))) }
	tests := []struct {
		name     string // why the row exists
		initial  *string
		wantRecs int    // records OpenAppend returns
		wantFile string // file content after appending episode 9, without that line
	}{
		{"a missing file is created", nil, 0, ""},
		{"an empty file is used as is", ptr(""), 0, ""},
		{"complete records are kept and appended after", ptr(line(0) + line(1)), 2, line(0) + line(1)},
		{"a partial last line is cut off and the records before it kept", ptr(line(0) + line(1)[:25]), 1, line(0)},
		{"a file holding only a partial line is emptied", ptr(line(0)[:10]), 0, ""},
		{"a last record missing only its newline is kept and terminated", ptr(line(0) + strings.TrimSuffix(line(1), "\n")), 2, line(0) + line(1)},
		{"trailing whitespace without a newline is dropped", ptr(line(0) + "   "), 1, line(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "records.jsonl")
			if tt.initial != nil {
				if err := os.WriteFile(path, []byte(*tt.initial), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w, recs, c, err := OpenAppend(path)
			if err != nil {
				t.Fatalf("OpenAppend: %v", err)
			}
			if len(recs) != tt.wantRecs {
				t.Errorf("got %d existing records, want %d", len(recs), tt.wantRecs)
			}
			if err := w.Write(episode(9)); err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.wantFile + line(9); string(data) != want {
				t.Errorf("file:\ngot  %q\nwant %q", data, want)
			}
			all, err := ReadRecords(bytes.NewReader(data), path)
			if err != nil || len(all) != tt.wantRecs+1 {
				t.Errorf("reading back: %d records, err %v; want %d, nil", len(all), err, tt.wantRecs+1)
			}
		})
	}
}

func TestOpenAppendMalformedLeavesFileAlone(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "records.jsonl")
	good := string(encodeLines(t, episode(0)))
	content := good + "{broken\n" + good[:20]
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := OpenAppend(path)
	if err == nil || !strings.Contains(err.Error(), path+":2: invalid JSON") {
		t.Fatalf("OpenAppend = %v, want an error at %s:2", err, path)
	}
	if data, _ := os.ReadFile(path); string(data) != content {
		t.Fatalf("file changed despite the error: %q", data)
	}
}

func TestOpenAppendBadPath(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "records.jsonl")
	if _, _, _, err := OpenAppend(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("OpenAppend = %v, want an error naming %s", err, path)
	}
}

func ptr[T any](v T) *T { return &v }

// FuzzReadRecords: ReadRecords never panics, every record it returns
// validates, records come back only with no error or a truncation error, and
// writing the records and reading them back is stable.
func FuzzReadRecords(f *testing.F) {
	good := string(encodeLines(f, validRecord()))
	for _, s := range []string{
		"",
		good,
		good + good,
		good + good[:30],
		strings.TrimSuffix(good, "\n"),
		"\n\n" + good + "\r\n",
		`{"schema":2,"suite":1,"outcome":"scored","track":"t","family":"f","perturbation":"p","agent":"a","episode":-1}` + "\n",
		`{"schema":2,"suite":1,"outcome":"scored","track":"t","family":"f","perturbation":"p","agent":"a","messages":[{"from":"x"}],"tool_calls":{"a":1}}`,
		`{"schema":2,"suite":1,"outcome":"scored","track":"household","family":"put","perturbation":"none","agent":"dyref","trials":3,"reflections":2,"reflection_tokens":30,"reflection_tools":{"lesson":1,"plan":2},"reflection_token_counts":[10,20]}` + "\n",
		`{"schema":2,"suite":1,"outcome":"scored","track":"t","family":"f","perturbation":"p","agent":"a","reflections":1,"reflection_tokens":5,"reflection_token_counts":[2,3],"reflection_tools":{"x":-1}}` + "\n",
		"null\n[]\n{}\n",
		`{"schema":1,"episode":1e999}`,
		"{\"track\":\"\xff\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadRecords(bytes.NewReader(data), "fuzz")
		if err != nil && !errors.Is(err, ErrTruncated) && recs != nil {
			t.Fatalf("records returned with a non-truncation error %v", err)
		}
		for i, r := range recs {
			if verr := r.Validate(); verr != nil {
				t.Fatalf("record %d does not validate: %v", i, verr)
			}
		}
		// ScanRecords hands the same records, in order, and fails alike.
		var scanned []Record
		n, serr := ScanRecords(bytes.NewReader(data), "fuzz", nil, func(r Record) error {
			scanned = append(scanned, r)
			return nil
		})
		if (serr == nil) != (err == nil) || (err != nil && serr.Error() != err.Error()) {
			t.Fatalf("ScanRecords: %v; ReadRecords: %v", serr, err)
		}
		if err == nil || errors.Is(err, ErrTruncated) {
			if n != len(recs) || !bytes.Equal(encodeLines(t, scanned...), encodeLines(t, recs...)) {
				t.Fatalf("ScanRecords handed %d records, ReadRecords read %d", n, len(recs))
			}
		}
		once := encodeLines(t, recs...)
		again, err := ReadRecords(bytes.NewReader(once), "fuzz-reencoded")
		if err != nil {
			t.Fatalf("reading re-encoded records: %v\n%s", err, once)
		}
		if twice := encodeLines(t, again...); !bytes.Equal(once, twice) {
			t.Fatalf("re-encoding is not stable:\n%s\n%s", once, twice)
		}
	})
}

// ReadRecordsFunc names the line of a record its check refuses; OnceEach
// refuses an episode recorded twice, naming both lines (blank lines
// counted), and a killed run's cut line is still told apart.
func TestReadRecordsFunc(t *testing.T) {
	t.Parallel()
	data := append(encodeLines(t, episode(0), episode(1)), '\n')
	data = append(data, encodeLines(t, episode(0))...)
	_, err := ReadRecordsFunc(bytes.NewReader(data), "out/records.jsonl", OnceEach())
	want := `out/records.jsonl:4: episode "tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/42/0 appears twice, first at line 1`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an episode twice: %v, want %q", err, want)
	}
	if recs, err := ReadRecordsFunc(bytes.NewReader(encodeLines(t, episode(0), episode(1))), "mem", OnceEach()); err != nil || len(recs) != 2 {
		t.Errorf("each episode once: %d records, %v", len(recs), err)
	}
	rf := RunFile{Settings: map[string]string{"seed": "7"}, Grid: Grid{Episodes: 100}}
	check := func(_ int, r Record) error { return rf.CheckRecord(r) }
	_, err = ReadRecordsFunc(bytes.NewReader(encodeLines(t, episode(0))), "mem", check)
	if err == nil || err.Error() != `mem:1: field "seed": 42, but the run's run.json says seed 7` {
		t.Errorf("a record of another run: %v", err)
	}
	cut := append(encodeLines(t, episode(0)), `{"schema":2,"su`...)
	recs, err := ReadRecordsFunc(bytes.NewReader(cut), "mem", OnceEach())
	if !errors.Is(err, ErrTruncated) || len(recs) != 1 {
		t.Errorf("a cut last line: %d records, %v; want 1 and ErrTruncated", len(recs), err)
	}
}

// ScanRecords hands each record in order and keeps none; an error of
// each stops the scan, named by the line of the record it refused, and
// a killed run's cut line ends a scan that handed every whole record.
func TestScanRecords(t *testing.T) {
	t.Parallel()
	data := append(encodeLines(t, episode(0), episode(1)), '\n')
	data = append(data, encodeLines(t, episode(2))...)
	var got []int
	n, err := ScanRecords(bytes.NewReader(data), "mem", OnceEach(), func(r Record) error {
		got = append(got, r.Episode)
		return nil
	})
	if err != nil || n != 3 || !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("three records, a blank line between: handed %v (n %d), %v", got, n, err)
	}
	n, err = ScanRecords(bytes.NewReader(data), "mem", nil, func(r Record) error {
		if r.Episode == 2 {
			return errors.New("no episode 2 here")
		}
		return nil
	})
	if err == nil || err.Error() != "mem:4: no episode 2 here" || n != 2 {
		t.Errorf("each refusing line 4: n %d, %v; want 2 and mem:4: no episode 2 here", n, err)
	}
	cut := append(encodeLines(t, episode(0)), `{"schema":2,"su`...)
	n, err = ScanRecords(bytes.NewReader(cut), "mem", nil, func(Record) error { return nil })
	if !errors.Is(err, ErrTruncated) || n != 1 {
		t.Errorf("a cut last line: n %d, %v; want 1 and ErrTruncated", n, err)
	}
}

// ScanRecordsAt hands each record's line, from which ReadRecordAt reads
// the record again, in any order; a line that does not read names the
// file and line.
func TestScanRecordsAtReadsAgain(t *testing.T) {
	t.Parallel()
	data := append(encodeLines(t, episode(0)), "\r\n"...)
	data = append(data, bytes.Replace(encodeLines(t, episode(1)), []byte("\n"), []byte("\r\n"), 1)...)
	data = append(data, encodeLines(t, episode(2))...)
	data = data[:len(data)-1] // a last record without its newline
	var lines []LineAt
	_, err := ScanRecordsAt(bytes.NewReader(data), "mem", nil, func(r Record, at LineAt) error {
		if r.Episode != len(lines) {
			t.Errorf("record %d is episode %d", len(lines), r.Episode)
		}
		lines = append(lines, at)
		return nil
	})
	if err != nil || len(lines) != 3 || lines[1].Line != 3 || lines[2].Line != 4 {
		t.Fatalf("lines %+v, %v; want three, at lines 1, 3 and 4", lines, err)
	}
	for _, i := range []int{2, 0, 1} {
		r, err := ReadRecordAt(bytes.NewReader(data), "mem", lines[i])
		if err != nil || r.Episode != i {
			t.Errorf("ReadRecordAt(%+v) = episode %d, %v; want %d", lines[i], r.Episode, err, i)
		}
	}
	bad := LineAt{Off: lines[1].Off + 1, Size: lines[1].Size - 1, Line: lines[1].Line}
	if _, err := ReadRecordAt(bytes.NewReader(data), "mem", bad); err == nil || !strings.HasPrefix(err.Error(), "mem:3: ") {
		t.Errorf("a line read from its second byte: %v, want an error naming mem:3", err)
	}
}

// OpenAppendScan hands the records already in the file and keeps none;
// it repairs a cut last line as OpenAppend does, and leaves the file as
// it is when each refuses a record.
func TestOpenAppendScan(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "records.jsonl")
	data := append(encodeLines(t, episode(0), episode(1)), `{"schema":2,"su`...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenAppendScan(path, nil, func(r Record) error {
		if r.Episode == 1 {
			return errors.New("not this one")
		}
		return nil
	}); err == nil || !strings.Contains(err.Error(), path+":2: not this one") {
		t.Errorf("each refusing line 2: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Errorf("a refused open changed the file:\n%s", got)
	}
	var eps []int
	w, n, c, err := OpenAppendScan(path, nil, func(r Record) error { eps = append(eps, r.Episode); return nil })
	if err != nil || n != 2 || !slices.Equal(eps, []int{0, 1}) {
		t.Fatalf("OpenAppendScan: n %d, episodes %v, %v", n, eps, err)
	}
	if err := w.Write(episode(2)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := mustRead(t, path), encodeLines(t, episode(0), episode(1), episode(2)); !bytes.Equal(got, want) {
		t.Errorf("after the repair and a write:\n%s\nwant:\n%s", got, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestAppendToMendsAsOpenAppendScan: AppendTo, which reads the last line
// alone, leaves a file as OpenAppendScan, which reads it whole, does.
func TestAppendToMendsAsOpenAppendScan(t *testing.T) {
	good := string(encodeLines(t, validRecord()))
	for _, tc := range []struct{ why, data string }{
		{"an empty file", ""},
		{"whole lines", good + good},
		{"a line a kill cut short", good + good[:30]},
		{"a whole record without its newline", good + strings.TrimSuffix(good, "\n")},
		{"blanks after the last line", good + "  "},
		{"a blank line and a cut one", good + "\n" + good[:10]},
		{"a cut line alone", good[:20]},
	} {
		t.Run(tc.why, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
			for _, p := range []string{a, b} {
				if err := os.WriteFile(p, []byte(tc.data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, _, ca, err := OpenAppendScan(a, nil, func(Record) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			ca.Close()
			_, cb, err := AppendTo(b)
			if err != nil {
				t.Fatal(err)
			}
			cb.Close()
			wa, _ := os.ReadFile(a)
			wb, _ := os.ReadFile(b)
			if string(wa) != string(wb) {
				t.Errorf("AppendTo left %q, OpenAppendScan %q", wb, wa)
			}
		})
	}
}

// An error of the reader that names the file already is not prefixed
// with it again ("read x: read x: is a directory").
func TestScanRecordsNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ScanRecords(f, dir, nil, func(Record) error { return nil })
	if err == nil || strings.Count(err.Error(), dir) != 1 {
		t.Errorf("error %v, want one naming %s once", err, dir)
	}
}
