package view

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/results"
)

// SiteDir is the directory under a run's directory that the site is
// written to.
const SiteDir = "view"

// ChunkSize is the number of rows of each data script of the index.
const ChunkSize = 5000

//go:embed assets
var assets embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}).ParseFS(assets, "assets/*.tmpl"))

// Run is what the site of one run shows.
type Run struct {
	// Dir is the run's directory; the site is written to Dir/view, the
	// plots and transcripts are read from it.
	Dir     string
	RunFile results.RunFile
	// Records hands each of the run's records to each, in the order of
	// the run's file, and returns the first error, each's or its own: the
	// site is written as they pass, so that a run of any size is shown
	// without holding its records ([Records] hands a slice's).
	Records func(each func(r *results.Record) error) error
	// Report is the run's report in Markdown, as results/reports writes
	// it; its tables are shown as HTML tables, and the plots it links are
	// taken from Plots, else (a PNG) from Dir.
	Report string
	// Plots are the report's plots drawn for the site, by the file name
	// the report links (reports.Options.SVG draws them as SVG).
	Plots map[string][]byte
	// Maps are the semantic maps of a semmap run's records, by map
	// name (results.Record.Map): an episode's page draws its answer and
	// truth on its map. Nil draws none.
	Maps map[string][]MapObject
	// Compare links the index to compare.html, which WriteCompare writes.
	Compare bool
}

// Site says what Write wrote.
type Site struct {
	Dir      string // the site's directory, Dir/view
	Files    int
	Bytes    int64
	Episodes int
	// TranscriptBytes is the part of Bytes that is model calls (of the
	// episode pages) and their images: Bytes less it is the site's size
	// without transcripts.
	TranscriptBytes int64
	Transcripts     bool // the run kept transcripts
}

// PerEpisode is the site's size per episode, with its transcripts and
// without them.
func (s Site) PerEpisode() (with, without float64) {
	if s.Episodes == 0 {
		return 0, 0
	}
	n := float64(s.Episodes)
	return float64(s.Bytes) / n, float64(s.Bytes-s.TranscriptBytes) / n
}

// site writes the files of one site and counts them.
type site struct {
	Site
}

func (s *site) write(rel string, data []byte) error {
	path := filepath.Join(s.Dir, filepath.FromSlash(rel))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	s.Files++
	s.Bytes += int64(len(data))
	return nil
}

// Count is one line of the outcome counts.
type Count struct {
	Name string
	N    int
}

type indexPage struct {
	Title    string
	Settings [][2]string
	Suite    string
	Records  int
	Counts   []Count
	Report   []block
	Chunks   []string
	Compare  bool
	// Group is the episodes a page of episodes holds (GroupSize), 0
	// when each has its own (the run kept transcripts).
	Group int
}

// Records is a Run's Records of the records recs.
func Records(recs []results.Record) func(each func(r *results.Record) error) error {
	return func(each func(r *results.Record) error) error {
		for i := range recs {
			if err := each(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// Write writes the site of run to run.Dir/view, replacing the files of a
// site written before. It reads run.Records once, writing the index's
// data and the episodes' pages as the records pass, and the index last.
func Write(run Run) (Site, error) {
	s := &site{Site{Dir: filepath.Join(run.Dir, SiteDir)}}
	// The episodes' pages are written over those of a site written
	// before, and the pages it had that this one has not are removed.
	for _, sub := range []string{"data", "plots", "images"} {
		if err := os.RemoveAll(filepath.Join(s.Dir, sub)); err != nil {
			return s.Site, err
		}
	}
	for _, sub := range []string{"data", "episodes", "plots", "images", "fonts"} {
		if err := os.MkdirAll(filepath.Join(s.Dir, sub), 0o755); err != nil {
			return s.Site, err
		}
	}
	for _, a := range []string{"app.js", "style.css"} {
		data, err := assets.ReadFile("assets/" + a)
		if err != nil {
			return s.Site, err
		}
		if err := s.write(a, data); err != nil {
			return s.Site, err
		}
	}
	if err := writeFonts(s); err != nil {
		return s.Site, err
	}
	page := indexPage{Title: "ambibench run " + filepath.Base(filepath.Clean(run.Dir))}
	keys := make([]string, 0, len(run.RunFile.Settings))
	for k := range run.RunFile.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		page.Settings = append(page.Settings, [2]string{k, run.RunFile.Settings[k]})
	}
	g := run.RunFile.Grid
	page.Settings = append(page.Settings,
		[2]string{"grid: agents", strings.Join(g.Agents, ", ")},
		[2]string{"grid: models", strings.Join(g.Models, ", ")},
		[2]string{"grid: episodes", strconv.Itoa(g.Episodes)})

	eps, err := newEpisodeWriter(s, run)
	if err != nil {
		return s.Site, err
	}
	var t tally
	// The index's data: one row a record, in chunks of ChunkSize.
	rows := make([][]any, 0, ChunkSize)
	flush := func() error {
		data, err := json.Marshal(rows)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("data/records-%03d.js", len(page.Chunks))
		js := append([]byte("AMBIBENCH.add("), data...)
		js = append(js, ");\n"...)
		if err := s.write(name, js); err != nil {
			return err
		}
		page.Chunks = append(page.Chunks, name)
		rows = rows[:0]
		return nil
	}
	n := 0
	err = run.Records(func(r *results.Record) error {
		t.add(r)
		rows = append(rows, row(n, r))
		if len(rows) == ChunkSize {
			if err := flush(); err != nil {
				return err
			}
		}
		if err := eps.add(n, r); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return s.Site, err
	}
	if len(rows) > 0 || n == 0 {
		if err := flush(); err != nil {
			return s.Site, err
		}
	}
	if err := eps.finish(); err != nil {
		return s.Site, err
	}
	s.Episodes, page.Records = n, n
	page.Suite = run.RunFile.Settings["suite"]
	if page.Suite == "" && n > 0 {
		page.Suite = strconv.Itoa(t.firstSuite)
	}
	page.Counts = t.counts()
	blocks, err := reportBlocks(s, run, t.agents, t.perts)
	if err != nil {
		return s.Site, err
	}
	page.Report = blocks
	page.Compare = run.Compare
	if !eps.kept {
		page.Group = GroupSize
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "index.html.tmpl", page); err != nil {
		return s.Site, err
	}
	if err := s.write("index.html", b.Bytes()); err != nil {
		return s.Site, err
	}
	return s.Site, nil
}

// row is a record's row of the index: the columns app.js reads, by
// position (see its COLS).
func row(n int, r *results.Record) []any {
	tokens := r.InputTokens + r.OutputTokens
	return []any{n, r.Agent, r.Track, r.Family, r.Perturbation, r.Outcome, b01(r.Success), b01(r.ADA),
		r.Questions, r.Calls, tokens, int64(r.WallMS + 0.5), r.ErrorKind, r.Instruction, r.PlainKey()}
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tally is what the index says of the records as a whole, added up as
// they pass: the outcome counts (scored, agent errors, infrastructure
// errors, and each error kind), the first record's suite, and the agents
// and perturbations whose cells the report's tables link.
type tally struct {
	n             int
	byOutcome     map[string]int
	kinds         map[string]int
	firstSuite    int
	agents, perts map[string]bool
}

func (t *tally) add(r *results.Record) {
	if t.n == 0 {
		t.byOutcome, t.kinds = map[string]int{}, map[string]int{}
		t.agents, t.perts = map[string]bool{}, map[string]bool{}
		t.firstSuite = r.Suite
	}
	t.n++
	t.byOutcome[r.Outcome]++
	if r.Outcome != results.OutcomeScored {
		kind := r.ErrorKind
		if kind == "" {
			kind = "unknown"
		}
		t.kinds[r.Outcome+": "+kind]++
	}
	t.agents[r.Agent] = true
	t.perts[r.Perturbation] = true
}

func (t *tally) counts() []Count {
	out := []Count{{"records", t.n}}
	for _, o := range []string{results.OutcomeScored, results.OutcomeAgentError, results.OutcomeInfraError} {
		out = append(out, Count{o, t.byOutcome[o]})
	}
	for _, k := range slices.Sorted(maps.Keys(t.kinds)) {
		out = append(out, Count{k, t.kinds[k]})
	}
	return out
}

// reportBlocks parses the report and writes the plots it shows into the
// site's plots/, pointing the blocks at them: those of run.Plots, else
// the PNG of that name in the run's directory; a plot found in neither
// is dropped.
func reportBlocks(s *site, run Run, agents, perts map[string]bool) ([]block, error) {
	blocks := parseMarkdown(run.Report)
	linkCells(blocks, agents, perts)
	shown := map[string]bool{}
	out := blocks[:0]
	for _, b := range blocks {
		if b.Image != "" {
			name := path.Base(b.Image)
			data, ok := run.Plots[name]
			if !ok {
				var err error
				data, err = os.ReadFile(filepath.Join(run.Dir, name))
				if err != nil || !strings.HasSuffix(name, ".png") {
					continue
				}
			}
			if !shown[name] {
				if err := s.write("plots/"+name, data); err != nil {
					return nil, err
				}
				shown[name] = true
			}
			b.Image = "plots/" + name
		}
		out = append(out, b)
	}
	// Plots drawn that the report does not show.
	names := slices.Sorted(maps.Keys(run.Plots))
	for _, name := range names {
		if shown[name] {
			continue
		}
		if err := s.write("plots/"+name, run.Plots[name]); err != nil {
			return nil, err
		}
		out = append(out, block{Image: "plots/" + name, Alt: name})
	}
	return out, nil
}

// linkCells links the cells of the report's tables whose row is an agent
// of the records (its first column, one of agents) and whose column a
// perturbation of them (its header, one of perts) to the index filtered
// to that cell's failures.
func linkCells(blocks []block, agents, perts map[string]bool) {
	for k := range blocks {
		b := &blocks[k]
		if b.Header == nil {
			continue
		}
		b.Links = nil
		for _, row := range b.Rows {
			links := make([]string, len(row))
			if len(row) > 0 && agents[row[0]] {
				for j := 1; j < len(row) && j < len(b.Header); j++ {
					if perts[b.Header[j]] {
						links[j] = CellLink(row[0], b.Header[j])
					}
				}
			}
			b.Links = append(b.Links, links)
		}
	}
}

// CellLink is the link to the index filtered to the failures of an agent
// on a perturbation, which app.js reads from the fragment.
func CellLink(agent, perturbation string) string {
	return "index.html#agent=" + url.QueryEscape(agent) + "&perturbation=" + url.QueryEscape(perturbation) + "&success=false"
}

// answerRow is one id of a semmap answer against the truth.
type answerRow struct {
	Rank      int
	ID        string
	InTruth   bool
	TruthRank int // 1-based, 0 when not in the truth
}

// answerRows are a semmap record's answered ids, each with its rank in
// the truth.
func answerRows(r *results.Record) []answerRow {
	var out []answerRow
	for i, id := range r.Answer {
		a := answerRow{Rank: i + 1, ID: id}
		if k := slices.Index(r.Truth, id); k >= 0 {
			a.InTruth, a.TruthRank = true, k+1
		}
		out = append(out, a)
	}
	return out
}

type episodePage struct {
	N        int
	Key      string
	R        *results.Record
	Tokens   int
	Tools    []Count
	Calls    template.HTML
	HasCalls bool
	Kept     bool // the run kept transcripts
	Index    string
	Answers  []answerRow // semmap: the answer against the truth
	Map      *mapView    // semmap: the answer against the truth on the map
	Trials   []trial     // household: the game's text, trial by trial
}

// GroupSize is the number of episodes of each page of a run that kept no
// transcripts: one file an episode would be most of the time and the
// space of writing the site of a large run.
const GroupSize = 100

// EpisodePage is where, in a site, the page of the run's n-th record is:
// its own page episodes/N.html when the run kept transcripts, or its
// section of the page of GroupSize episodes, episodes/g-K.html#eN.
func EpisodePage(kept bool, n int) string {
	if kept {
		return "episodes/" + strconv.Itoa(n) + ".html"
	}
	return groupPage(n/GroupSize) + "#e" + strconv.Itoa(n)
}

func groupPage(k int) string { return fmt.Sprintf("episodes/g-%03d.html", k) }

// keptTranscripts reports whether the run in dir kept transcripts.
func keptTranscripts(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "transcripts.jsonl"))
	return err == nil
}

type groupData struct {
	First, Last int
	Pages       []episodePage
}

// episodeWriter writes the episodes' pages as the records pass: one an
// episode, with its model calls, when the run kept transcripts; else one
// a GroupSize episodes.
type episodeWriter struct {
	s      *site
	run    Run
	kept   bool
	calls  map[string][]entry
	want   map[string]bool // the pages written, which removeStale keeps
	copied map[string]bool // the images copied
	b, cb  bytes.Buffer
	group  groupData
	recs   []results.Record // the group's records, which its pages point to
	last   int
}

func newEpisodeWriter(s *site, run Run) (*episodeWriter, error) {
	calls, err := readTranscripts(filepath.Join(run.Dir, "transcripts.jsonl"))
	kept := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	s.Transcripts = kept
	return &episodeWriter{s: s, run: run, kept: kept, calls: calls, want: map[string]bool{}, copied: map[string]bool{},
		recs: make([]results.Record, 0, GroupSize)}, nil
}

// add writes, or keeps for its group's page, the page of the i-th record r.
func (w *episodeWriter) add(i int, r *results.Record) error {
	w.last = i
	if !w.kept {
		// The record is copied: the caller may reuse r once add returns.
		w.recs = append(w.recs, *r)
		r = &w.recs[len(w.recs)-1]
	}
	p := episodePage{N: i, Key: r.PlainKey(), R: r, Tokens: r.InputTokens + r.OutputTokens, Kept: w.kept}
	for name, n := range r.ToolCalls {
		p.Tools = append(p.Tools, Count{name, n})
	}
	slices.SortFunc(p.Tools, func(a, b Count) int { return strings.Compare(a.Name, b.Name) })
	if r.Query != "" {
		p.Answers = answerRows(r)
		p.Map = drawMap(w.run.Maps[r.Map], r.Answer, r.Truth)
	}
	if !w.kept {
		w.group.Pages = append(w.group.Pages, p)
		if len(w.group.Pages) == GroupSize {
			return w.flushGroup()
		}
		return nil
	}
	s := w.s
	if cs := w.calls[r.Key()]; len(cs) > 0 {
		for _, im := range imagesOf(cs) {
			if w.copied[im] {
				continue
			}
			w.copied[im] = true
			data, err := os.ReadFile(filepath.Join(w.run.Dir, "images", im))
			if err != nil {
				continue // shown by digest alone
			}
			if err := s.write("images/"+im, data); err != nil {
				return err
			}
			s.TranscriptBytes += int64(len(data))
		}
		w.cb.Reset()
		if err := pages.ExecuteTemplate(&w.cb, "calls", callsOf(cs, w.run.Dir)); err != nil {
			return err
		}
		p.Calls = template.HTML(w.cb.String()) // made by html/template, escaped
		p.HasCalls = true
		s.TranscriptBytes += int64(w.cb.Len())
		if r.Track == "household" {
			p.Trials = householdTrials(cs)
			for _, t := range p.Trials {
				s.TranscriptBytes += int64(len(t.Text) + len(t.Last) + len(t.Reflection))
			}
		}
	}
	w.b.Reset()
	if err := pages.ExecuteTemplate(&w.b, "episode.html.tmpl", p); err != nil {
		return err
	}
	name := EpisodePage(true, i)
	w.want[path.Base(name)] = true
	return s.write(name, w.b.Bytes())
}

// flushGroup writes the page of the episodes kept since the last.
func (w *episodeWriter) flushGroup() error {
	w.group.First, w.group.Last = w.group.Pages[0].N, w.last
	w.b.Reset()
	if err := pages.ExecuteTemplate(&w.b, "group", w.group); err != nil {
		return err
	}
	name := groupPage(w.last / GroupSize)
	w.want[path.Base(name)] = true
	if err := w.s.write(name, w.b.Bytes()); err != nil {
		return err
	}
	w.group.Pages = w.group.Pages[:0]
	w.recs = w.recs[:0]
	return nil
}

// finish writes the last group's page and removes the pages of a site
// written before that this one has not.
func (w *episodeWriter) finish() error {
	if len(w.group.Pages) > 0 {
		if err := w.flushGroup(); err != nil {
			return err
		}
	}
	return removeStale(filepath.Join(w.s.Dir, "episodes"), w.want)
}

// entry is one line of transcripts.jsonl, as the model layer writes it.
type entry = middleware.TranscriptEntry

// imageFile is im's file name under the run's images/ directory, as
// agents/llm/imagefile names it; false for a digest that could not name
// a file there.
func imageFile(im llm.Image) (string, bool) {
	p, err := imagefile.Path("", im)
	if err != nil {
		return "", false
	}
	return filepath.Base(p), true
}

func readTranscripts(path string) (map[string][]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]entry{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out[e.Episode] = append(out[e.Episode], e)
	}
	return out, sc.Err()
}

func imagesOf(cs []entry) []string {
	var out []string
	for _, c := range cs {
		for _, m := range c.Request.Messages {
			for _, im := range m.Images {
				if name, ok := imageFile(im); ok {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// call is one model call as the episode page shows it: the messages the
// previous call did not have (a workflow resends its conversation).
type call struct {
	Model     string
	System    string
	Messages  []shownMessage
	Reply     string
	ToolCalls []shownCall
	Finish    string
	Error     string
	In, Out   int
	LatencyMS string
	Earlier   int // messages shown at an earlier call
}

type shownMessage struct {
	Role, Text, Name string
	ToolCalls        []shownCall
	Images           []shownImage
}

type shownCall struct{ Name, Args string }

type shownImage struct {
	Src, Digest, MIME string
	Width, Height     int
	Kept              bool
}

func callsOf(cs []entry, dir string) []call {
	out := make([]call, 0, len(cs))
	var prev []llm.Message
	prevSystem := ""
	for _, c := range cs {
		sc := call{Model: c.Model, Error: c.Error, In: c.InputTokens, Out: c.OutputTokens,
			LatencyMS: strconv.FormatFloat(float64(c.Latency)/1e6, 'f', 1, 64)}
		msgs := c.Request.Messages
		if c.Request.System == prevSystem && isPrefix(prev, msgs) {
			sc.Earlier = len(prev)
			msgs = msgs[len(prev):]
		} else {
			sc.System = c.Request.System
		}
		for _, m := range msgs {
			sm := shownMessage{Role: string(m.Role), Text: m.Text, Name: m.Name, ToolCalls: shownCalls(m.ToolCalls)}
			for _, im := range m.Images {
				si := shownImage{Digest: im.Digest, MIME: im.MIME, Width: im.Width, Height: im.Height}
				if name, ok := imageFile(im); ok {
					if _, err := os.Stat(filepath.Join(dir, imagefile.Dir, name)); err == nil {
						si.Src, si.Kept = "../images/"+name, true
					}
				}
				sm.Images = append(sm.Images, si)
			}
			sc.Messages = append(sc.Messages, sm)
		}
		prev, prevSystem = c.Request.Messages, c.Request.System
		if c.Reply != nil {
			sc.Reply, sc.ToolCalls, sc.Finish = c.Reply.Text, shownCalls(c.Reply.ToolCalls), c.Reply.FinishReason
			prev = append(slices.Clone(prev), llm.Message{Role: llm.RoleAssistant, Text: c.Reply.Text, ToolCalls: c.Reply.ToolCalls})
		}
		out = append(out, sc)
	}
	return out
}

func shownCalls(tcs []llm.ToolCall) []shownCall {
	var out []shownCall
	for _, tc := range tcs {
		out = append(out, shownCall{tc.Name, string(tc.Args)})
	}
	return out
}

func isPrefix(prev, msgs []llm.Message) bool {
	if len(prev) > len(msgs) {
		return false
	}
	for i := range prev {
		a, b := prev[i], msgs[i]
		if a.Role != b.Role || a.Text != b.Text || a.ToolCallID != b.ToolCallID || len(a.ToolCalls) != len(b.ToolCalls) {
			return false
		}
	}
	return true
}

// removeStale removes from dir the files of a site written before that
// this one did not write.
func removeStale(dir string, want map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !want[e.Name()] {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
