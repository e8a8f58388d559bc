package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/middleware"
)

// An ensemble over two sim profiles runs end to end on the built-in
// dataset: every record names the members and the chooser, and its calls
// and tokens are those the transcript shows for the episode, members'
// and chooser's together — so a member whose calls went uncounted would
// show as a gap.
func TestEnsembleModelsEndToEnd(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	_, stderr, err := runCLI(t, "run", "--track", "semmap", "--agents", "ensemble", "--tasks", "negation",
		"--episodes", "6", "--model", "sim", "--ensemble-models", "sim:perfect, sim:weak", "--transcripts", "--out", out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	recs := readRecords(t, out)
	if len(recs) != 6 {
		t.Fatalf("%d records, want 6", len(recs))
	}
	type use struct{ calls, in, out int }
	byEpisode := map[string]*use{}
	byModel := map[string]int{}
	f, err := os.Open(filepath.Join(out, "transcripts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e middleware.TranscriptEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("transcript line: %v", err)
		}
		u := byEpisode[e.Episode]
		if u == nil {
			u = &use{}
			byEpisode[e.Episode] = u
		}
		u.calls++
		u.in += e.InputTokens
		u.out += e.OutputTokens
		byModel[e.Model]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// Six answers, three from each member in turn, and one choice by --model;
	// sim:weak, which writes a malformed reply now and then, is asked again
	// for each (the record counts those calls too, checked below).
	retries := byModel["sim:weak"] - 18
	if byModel["sim:perfect"] != 18 || byModel["sim"] != 6 || retries < 0 || len(byModel) != 3 {
		t.Errorf("calls by model %v, want sim:perfect 18, sim 6 and sim:weak at least 18", byModel)
	}
	extra := 0
	for _, r := range recs {
		extra += r.Calls - 7
		if r.Model != "members sim:perfect,sim:weak; chooser sim" {
			t.Errorf("episode %d: model %q does not name the members and the chooser", r.Episode, r.Model)
		}
		u := byEpisode[r.Key()]
		if u == nil {
			t.Fatalf("episode %d (%s): no transcript lines", r.Episode, r.Key())
		}
		if r.Calls != u.calls || r.InputTokens != u.in || r.OutputTokens != u.out {
			t.Errorf("episode %d: record counts %d calls, %d+%d tokens; the transcript %d calls, %d+%d tokens",
				r.Episode, r.Calls, r.InputTokens, r.OutputTokens, u.calls, u.in, u.out)
		}
		if r.Calls < 7 {
			t.Errorf("episode %d: %d calls, want at least 7 (6 answers and the choice)", r.Episode, r.Calls)
		}
	}
	if extra != retries {
		t.Errorf("the records count %d calls beyond 7 an episode, the transcript %d retries of sim:weak", extra, retries)
	}
}

func TestEnsembleModelsBadInvocations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		args []string
		want string
	}{
		{"a bad spec is named with its position",
			[]string{"run", "--track", "semmap", "--agents", "ensemble", "--episodes", "1", "--ensemble-models", "sim:perfect,sim:bogus,sim"},
			`--ensemble-models: member 2 of 3, "sim:bogus"`},
		{"an unknown backend is named too",
			[]string{"run", "--track", "semmap", "--agents", "ensemble", "--episodes", "1", "--ensemble-models", "nosuch:x"},
			`member 1 of 1, "nosuch:x"`},
		{"members without an agent that takes them",
			[]string{"run", "--track", "semmap", "--agents", "baseline", "--episodes", "1", "--ensemble-models", "sim:weak"},
			"no agent of this run samples from members (those that do: ensemble)"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			_, errOut, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error()+errOut, tc.want) {
				t.Errorf("error %q: want %q", err, tc.want)
			}
		})
	}
}

func TestEnsembleModelsInHelp(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "run", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-ensemble-models specs", "chooser stays --model"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
}

func TestSplitModelSpecs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, in string
		want    []string
	}{
		{"plain list", "sim:perfect,sim:weak", []string{"sim:perfect", "sim:weak"}},
		{"spaces and blanks are dropped", " sim , ,openai:gpt-4o-mini ", []string{"sim", "openai:gpt-4o-mini"}},
		{"a sim spec's rates stay with it", "sim:hallucinate=0.1,tag=0.3,sim:weak", []string{"sim:hallucinate=0.1,tag=0.3", "sim:weak"}},
		{"a record spec's inner rates stay with it", "record:c=sim:hallucinate=0.1,tag=0.3,replay:c", []string{"record:c=sim:hallucinate=0.1,tag=0.3", "replay:c"}},
		{"a leading rate has nothing to join and stands alone", "tag=0.3,sim", []string{"tag=0.3", "sim"}},
		{"empty", "", nil},
	} {
		if got := splitModelSpecs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s: splitModelSpecs(%q) = %q, want %q", tc.why, tc.in, got, tc.want)
		}
	}
}

// Whatever the input, the specs are its non-blank comma pieces, trimmed,
// in order: nothing is lost, invented or reordered.
func FuzzSplitModelSpecs(f *testing.F) {
	for _, s := range []string{"sim:perfect,sim:weak", "sim:hallucinate=0.1,tag=0.3,sim", " , ,", "=,:,=:", "record:d=sim,x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				want = append(want, p)
			}
		}
		var got []string
		for _, spec := range splitModelSpecs(s) {
			if spec == "" {
				t.Fatalf("splitModelSpecs(%q) has an empty spec", s)
			}
			got = append(got, strings.Split(spec, ",")...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("splitModelSpecs(%q) pieces %q, want %q", s, got, want)
		}
	})
}
