package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/middleware"
)

// The episode of a transcript line is read from the line's head, as the
// transcript writes it, or, failing that, by decoding the line.
func TestTranscriptEpisode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, line, want, err string
	}{
		{"a record's key, as bench names an episode", `{"episode":"\"tabletop\"/\"pick_place\"/\"none\"/\"direct\"/\"sim\"/1/0","model":"sim"}`, `"tabletop"/"pick_place"/"none"/"direct"/"sim"/1/0`, ""},
		{"the calibration split", `{"episode":"calibration/clara/sim","model":"sim"}`, "calibration/clara/sim", ""},
		{"a call outside an episode", `{"episode":"","model":"sim"}`, "", ""},
		{"an escape Go does not know (\\/) is decoded as JSON does", `{"episode":"a\/b"}`, "a/b", ""},
		{"the episode elsewhere in the line", `{"model":"sim","episode":"x"}`, "x", ""},
		{"a line without an episode is not a transcript's", `{"model":"sim"}`, "", `no "episode"`},
		{"a line that is not JSON", `{"episode":`, "", "not a transcript line"},
	} {
		got, err := transcriptEpisode([]byte(tc.line))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want an error with %q", tc.why, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.why, got, err, tc.want)
		}
	}
}

// A transcript line cut short by a kill, or the lines of an episode
// without a record, are named by scanTranscript and dropped; a line that
// is not a transcript's, before the last, is an error naming the file
// and line.
func TestScanTranscriptNamesABadLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), transcriptFileName)
	os.WriteFile(path, []byte("{\"episode\":\"a\"}\n[1]\n{\"episode\":\"b\"}\n"), 0o644)
	err := scanTranscript(path, func([]byte, int, string, bool) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), path+":2: not a transcript line") {
		t.Errorf("got %v, want an error at %s:2", err, path)
	}
	os.WriteFile(path, []byte("{\"episode\":\"a\"}\n{\"episode\":\"b\",\"mo"), 0o644)
	var partial []int
	if err := scanTranscript(path, func(_ []byte, n int, _ string, p bool) error {
		if p {
			partial = append(partial, n)
		}
		return nil
	}); err != nil || len(partial) != 1 || partial[0] != 2 {
		t.Errorf("a cut last line: partial lines %v, %v; want line 2", partial, err)
	}
}

// FuzzTranscriptEpisode: transcriptEpisode never panics; on a line the
// transcript writes it gives the line's episode, whatever its text; and
// what it reads from a line that decodes is what decoding reads, but
// where the line names its episode twice (which no writer does).
func FuzzTranscriptEpisode(f *testing.F) {
	for _, s := range []string{`"tabletop"/"pick_place"/"none"/"direct"/"sim"/1/0`, "calibration/clara/sim", "", "a\u2028b", "\x00\xff", `\"`} {
		f.Add(s, []byte(`{"episode":"`+s+`"}`))
	}
	f.Add("x", []byte(`{"episode":"a\/b","model":1}`))
	f.Add("x", []byte(`{"episode":"\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, episode string, line []byte) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(middleware.TranscriptEntry{Episode: episode, Model: "sim"}); err != nil {
			t.Fatal(err)
		}
		var want struct{ Episode string }
		json.Unmarshal(buf.Bytes(), &want) // what a reader of the line sees: invalid UTF-8 made U+FFFD
		if got, err := transcriptEpisode(bytes.TrimSpace(buf.Bytes())); err != nil || got != want.Episode {
			t.Errorf("episode %q written as %s: read %q, %v", episode, buf.Bytes(), got, err)
		}
		got, err := transcriptEpisode(line)
		var e struct {
			Episode *string `json:"episode"`
		}
		if err != nil || json.Unmarshal(line, &e) != nil || e.Episode == nil || bytes.Count(line, []byte(`"episode"`)) > 1 {
			return
		}
		if got != *e.Episode {
			t.Errorf("%s: read episode %q, decoding gives %q", line, got, *e.Episode)
		}
	})
}
