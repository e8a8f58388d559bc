package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/prompt"
	"github.com/ambibench/ambibench/results"
)

// The grid of the --prompts tests: the direct workflow, whose system
// prompt is direct_system.tmpl, on two cells, one episode each, on
// sim:perfect, whose replies no change of a prompt's text moves.
var promptsGrid = []string{"run", "--model", "sim:perfect", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "1", "--quiet"}

// exportPrompts runs "prompts export" into a fresh directory.
func exportPrompts(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "prompts")
	stdout, stderr, err := runCLI(t, "prompts", "export", dir)
	if err != nil {
		t.Fatalf("prompts export: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "wrote "+dir) {
		t.Errorf("prompts export says %q", stdout)
	}
	return dir
}

// editTemplate replaces old with new in dir/file, which must hold old
// once.
func editTemplate(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), old) != 1 {
		t.Fatalf("%s holds %q %d times, want once", path, old, strings.Count(string(b), old))
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// transcriptEntries reads dir's transcripts.jsonl: the calls of each
// episode in the order they were made, the episodes in key order (the
// file has the calls of the episodes under way at once interleaved).
func transcriptEntries(t *testing.T, dir string) []middleware.TranscriptEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, transcriptFileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []middleware.TranscriptEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e middleware.TranscriptEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(out, func(a, b middleware.TranscriptEntry) int { return strings.Compare(a.Episode, b.Episode) })
	return out
}

// TestPromptsChangeExactlyThatPrompt: prompts export, one template
// changed, run --prompts: every request is the built-in run's, but for
// the changed template's text, and the records are the same but for the
// tokens (sim:perfect answers from the call's context, and makes no
// mistake that a draw keyed by the request's text would place). The
// two runs go at once, in one process, as the tests run many: each
// renders its own templates. run.json records the changed template's
// hash; the same directory without --prompts, or with other prompts, is
// refused, naming the setting; with the same prompts it resumes.
func TestPromptsChangeExactlyThatPrompt(t *testing.T) {
	t.Parallel()
	prompts := exportPrompts(t)
	file := filepath.Join(prompts, "tabletop", "direct_system.tmpl")
	const old, changed = "Act only through the tools.", "Act only through the tools, and think before each call."
	editTemplate(t, file, old, changed)

	base, with := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "with")
	var wg sync.WaitGroup
	var baseErr, withErr error
	var withStderr string
	wg.Go(func() { _, _, baseErr = runCLI(t, append(promptsGrid, "--transcripts", "--out", base)...) })
	wg.Go(func() {
		_, withStderr, withErr = runCLI(t, append(promptsGrid, "--transcripts", "--out", with, "--prompts", prompts)...)
	})
	wg.Wait()
	if baseErr != nil || withErr != nil {
		t.Fatalf("runs: %v; %v\n%s", baseErr, withErr, withStderr)
	}
	if !strings.Contains(withStderr, "1 template in place of the built-in: tabletop/direct_system.tmpl") {
		t.Errorf("run --prompts does not say which template it replaced:\n%s", withStderr)
	}

	baseCalls, withCalls := transcriptEntries(t, base), transcriptEntries(t, with)
	if len(baseCalls) == 0 || len(baseCalls) != len(withCalls) {
		t.Fatalf("%d calls without --prompts, %d with", len(baseCalls), len(withCalls))
	}
	for i := range baseCalls {
		b, w := baseCalls[i], withCalls[i]
		if !strings.Contains(b.Request.System, old) || strings.Contains(b.Request.System, changed) {
			t.Errorf("call %d without --prompts: the system prompt is not the built-in one:\n%s", i, b.Request.System)
		}
		if want := strings.Replace(b.Request.System, old, changed, 1); w.Request.System != want {
			t.Errorf("call %d: with --prompts the system prompt is\n%s\nwant the built-in one with the change:\n%s", i, w.Request.System, want)
		}
		// The simulated model counts the tokens of the text it is sent.
		if w.InputTokens <= b.InputTokens {
			t.Errorf("call %d: %d input tokens with the longer system prompt, %d without", i, w.InputTokens, b.InputTokens)
		}
		b.Request.System, w.Request.System = "", ""
		b.Latency, w.Latency = 0, 0
		b.InputTokens, w.InputTokens = 0, 0
		if b.Reply != nil && w.Reply != nil {
			br, wr := *b.Reply, *w.Reply
			br.InputTokens, wr.InputTokens, br.Latency, wr.Latency = 0, 0, 0, 0
			b.Reply, w.Reply = &br, &wr
		}
		if !reflect.DeepEqual(b, w) {
			t.Errorf("call %d differs in more than the changed template:\n%+v\n%+v", i, b, w)
		}
	}
	noTokens := func(rs []results.Record) []results.Record {
		for i := range rs {
			rs[i].InputTokens = 0
		}
		return rs
	}
	if b, w := canonical(t, noTokens(readRecords(t, base))), canonical(t, noTokens(readRecords(t, with))); b != w {
		t.Errorf("the records differ in more than the input tokens:\n%s\n%s", b, w)
	}

	if sum := string(readFile(t, filepath.Join(with, summaryFileName))); !strings.Contains(sum, "Prompt templates in place of the built-in ones (run --prompts "+prompts+"): `tabletop/direct_system.tmpl` (SHA-256 ") {
		t.Errorf("summary.md does not say which template the run replaced:\n%s", sum)
	}
	if sum := string(readFile(t, filepath.Join(base, summaryFileName))); strings.Contains(sum, "Prompt templates") {
		t.Errorf("summary.md of a run without --prompts names prompt templates:\n%s", sum)
	}
	rf, _, err := results.ReadRunFile(with)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	const setting = "prompt:tabletop/direct_system.tmpl"
	if got := rf.Settings[setting]; got != hex.EncodeToString(sum[:]) {
		t.Errorf("run.json's %s is %q, want the file's SHA-256 %s (settings %v)", setting, got, hex.EncodeToString(sum[:]), rf.Settings)
	}
	for k := range rf.Settings {
		if strings.HasPrefix(k, prompt.SettingPrefix) && k != setting {
			t.Errorf("run.json names %s, which the run did not replace", k)
		}
	}
	if rf, _, _ := results.ReadRunFile(base); len(rf.Settings) == 0 || rf.Settings[setting] != "" {
		t.Errorf("the run without --prompts has settings %v", rf.Settings)
	}

	// The directory refuses a run without the prompts, and one with
	// other prompts, naming the setting; the same prompts resume.
	_, _, err = runCLI(t, append(promptsGrid, "--out", with)...)
	if err == nil || !strings.Contains(err.Error(), setting+": "+hex.EncodeToString(sum[:])+" in the directory, (unset) now") {
		t.Errorf("rerun without --prompts: %v, want a refusal naming %s", err, setting)
	}
	editTemplate(t, file, changed, changed+" Twice.")
	if _, _, err = runCLI(t, append(promptsGrid, "--out", with, "--prompts", prompts)...); err == nil || !strings.Contains(err.Error(), setting+": ") {
		t.Errorf("rerun with other prompts: %v, want a refusal naming %s", err, setting)
	}
	editTemplate(t, file, changed+" Twice.", changed)
	if _, stderr, err := runCLI(t, append(promptsGrid, "--out", with, "--prompts", prompts)...); err != nil {
		t.Errorf("rerun with the same prompts: %v\n%s", err, stderr)
	}
	// And the run without prompts does not take the run with them.
	if _, _, err = runCLI(t, append(promptsGrid, "--out", base, "--prompts", prompts)...); err == nil || !strings.Contains(err.Error(), setting+": (unset) in the directory") {
		t.Errorf("a run with --prompts on the directory of one without: %v, want a refusal naming %s", err, setting)
	}
	// compare pairs the two runs, the prompts as what is compared.
	if _, stderr, err := runCLI(t, "compare", base, with); err != nil {
		t.Errorf("compare without and with --prompts: %v\n%s", err, stderr)
	}
}

// TestPromptsRefused: run --prompts refuses, before the run, a template
// that does not parse or names a field its workflow does not give (file
// and line), a file for no workflow or template, and a directory that
// changes nothing the track reads; nothing is written to --out.
func TestPromptsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		edit func(t *testing.T, dir string)
		err  string // a regexp; DIR is the prompts' directory
	}{
		{"a template that does not parse", func(t *testing.T, dir string) {
			editTemplate(t, filepath.Join(dir, "tabletop", "direct_user.tmpl"), "You are {{.Robot}}.", "You are {{.Robot.")
		}, `run: --prompts DIR: refused before the run:\n  DIR/tabletop/direct_user\.tmpl:3: `},
		{"a field the workflow does not give", func(t *testing.T, dir string) {
			editTemplate(t, filepath.Join(dir, "tabletop", "direct_user.tmpl"), "Named places: {{.Places}}.", "Named places: {{.Places}}. Weather: {{.Weather}}.")
		}, `\n  DIR/tabletop/direct_user\.tmpl:8: \{\{\.Weather\}\}: tabletop\.promptData has no field Weather; it has Instruction, Robot, Partner, GraphJSON, Places, Message`},
		{"a file for no template", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "tabletop", "direct_sytem.tmpl"), "x")
		}, `DIR/tabletop/direct_sytem\.tmpl: the tabletop workflows have no template direct_sytem\.tmpl; did you mean direct_system\.tmpl\?`},
		{"a directory for no workflow", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "kitchen", "a.tmpl"), "x")
		}, `DIR/kitchen: no workflow's prompts are called kitchen`},
		{"nothing changed", func(t *testing.T, dir string) {}, `run: --prompts DIR: no template of the tabletop workflows there differs from the built-in one; edit the ones to change in DIR/tabletop, or leave the flag out`},
		{"only another track's template changed", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "semmap", "semmap_choose.tmpl")
			write(t, path, string(readFile(t, path))+"\n")
		}, `no template of the tabletop workflows there differs from the built-in one \(it replaces semmap/semmap_choose\.tmpl, which the tabletop track does not read\)`},
	} {
		dir := exportPrompts(t)
		tc.edit(t, dir)
		out := filepath.Join(t.TempDir(), "out")
		_, _, err := runCLI(t, append(promptsGrid, "--out", out, "--prompts", dir)...)
		want := strings.ReplaceAll(tc.err, "DIR", regexp.QuoteMeta(dir))
		if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("%s: %v\nwant an error matching %s", tc.why, err, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused run made %s", tc.why, out)
		}
	}
}

// TestPromptsExportRefusesADirectoryInUse: export writes into a new or
// empty directory only, and every file of every registered set.
func TestPromptsExportRefusesADirectoryInUse(t *testing.T) {
	t.Parallel()
	dir := exportPrompts(t)
	n := 0
	for _, s := range prompt.Sets() {
		for _, f := range s.Files() {
			n++
			if b, err := os.ReadFile(filepath.Join(dir, s.Name(), f.Name)); err != nil || string(b) != f.Text {
				t.Errorf("%s/%s: %v, or not the built-in text", s.Name(), f.Name, err)
			}
		}
	}
	if n < 30 {
		t.Errorf("export wrote %d templates; the workflows have more", n)
	}
	if _, _, err := runCLI(t, "prompts", "export", dir); err == nil || !strings.Contains(err.Error(), "prompts export: "+dir+" is not empty") {
		t.Errorf("export into a written directory: %v, want a refusal", err)
	}
	if results.PromptSettingPrefix != prompt.SettingPrefix {
		t.Errorf("compare reads prompt settings as %q, run writes them as %q", results.PromptSettingPrefix, prompt.SettingPrefix)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPromptsReachEveryCall: with a marker written at the end of every
// template of a track's set, every call of the track's workflows carries
// it, and with the markers taken out each request is the one the
// built-in templates make: every workflow renders with the run's
// templates, none with the built-in ones behind them.
func TestPromptsReachEveryCall(t *testing.T) {
	t.Parallel()
	const marker = "PROMPT-OVERRIDE-MARKER"
	for _, tc := range []struct {
		track string
		args  []string
	}{
		{"tabletop", []string{"--agents", "direct,sgcot,sgcot-single-retrieval,clara,inner-monologue,progprompt", "--tasks", "pick_place",
			"--perturbations", "none,absence,partial_observability", "--episodes", "1"}},
		{"household", []string{"--agents", "react,reflexion,react-text,reflexion-text,dyref,dyref-ambiguity", "--tasks", "pick_heat_then_place",
			"--perturbations", "none,multiplicity", "--episodes", "1"}},
		{"semmap", []string{"--agents", "all", "--episodes", "1"}},
	} {
		t.Run(tc.track, func(t *testing.T) {
			t.Parallel()
			prompts := exportPrompts(t)
			set, ok := prompt.Lookup(tc.track)
			if !ok {
				t.Fatalf("no prompt set %s", tc.track)
			}
			for _, f := range set.Files() {
				path := filepath.Join(prompts, tc.track, f.Name)
				write(t, path, string(readFile(t, path))+"\n"+marker)
			}
			args := append([]string{"run", "--track", tc.track, "--model", "sim:perfect", "--quiet", "--transcripts"}, tc.args...)
			base, with := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "with")
			if _, stderr, err := runCLI(t, append(args, "--out", base)...); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if _, stderr, err := runCLI(t, append(args, "--out", with, "--prompts", prompts)...); err != nil {
				t.Fatalf("--prompts: %v\n%s", err, stderr)
			}
			baseCalls, withCalls := transcriptEntries(t, base), transcriptEntries(t, with)
			if len(baseCalls) == 0 || len(baseCalls) != len(withCalls) {
				t.Fatalf("%d calls without --prompts, %d with", len(baseCalls), len(withCalls))
			}
			// A workflow may trim or join what a template renders (the
			// text shape's preamble), so the texts are compared with their
			// whitespace as single spaces.
			plain := func(s string) string {
				s = strings.ReplaceAll(s, marker, " ")
				return strings.Join(strings.Fields(s), " ")
			}
			// Each episode's requests, normalized, sorted: the calls of the
			// calibration split are made at once, in no fixed order.
			requests := func(calls []middleware.TranscriptEntry, marked bool) map[string][]string {
				out := map[string][]string{}
				for i, c := range calls {
					r := c.Request
					if j, _ := json.Marshal(r); strings.Contains(string(j), marker) != marked {
						t.Errorf("call %d (%s): marker shown %v, want %v:\n%s", i, c.Episode, !marked, marked, j)
					}
					r.System = plain(r.System)
					r.Messages = slices.Clone(r.Messages)
					for j := range r.Messages {
						r.Messages[j].Text = plain(r.Messages[j].Text)
					}
					j, err := json.Marshal(r)
					if err != nil {
						t.Fatal(err)
					}
					out[c.Episode] = append(out[c.Episode], string(j))
				}
				for _, rs := range out {
					slices.Sort(rs)
				}
				return out
			}
			b, w := requests(baseCalls, false), requests(withCalls, true)
			for ep, rs := range b {
				if !slices.Equal(rs, w[ep]) {
					t.Errorf("%s: without the markers, the requests are not the built-in ones:\n%.2000s\nwant\n%.2000s", ep, strings.Join(w[ep], "\n"), strings.Join(rs, "\n"))
				}
			}
		})
	}
}

// TestEveryPromptSetTyped reads the registry of prompt sets the command
// links: the three tracks' workflows', each template of each with the
// type of its data registered (or called by one that has), and the
// built-in templates passing the check a replaced one must pass.
func TestEveryPromptSetTyped(t *testing.T) {
	t.Parallel()
	names := prompt.SetNames()
	for _, want := range []string{"household", "semmap", "tabletop"} {
		if !slices.Contains(names, want) {
			t.Errorf("no prompt set %s registered (have %v)", want, names)
		}
	}
	for _, s := range prompt.Sets() {
		if u := s.Untyped(); len(u) > 0 {
			t.Errorf("%s: templates with no registered data type: %v (give each its data's zero value in the package's prompt.Register call)", s.Name(), u)
		}
		if err := s.Check(); err != nil {
			t.Errorf("%s: the built-in templates fail the check:\n%v", s.Name(), err)
		}
		if len(s.Entries()) == 0 {
			t.Errorf("%s: no template registered with its data", s.Name())
		}
	}
}
