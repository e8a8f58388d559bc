package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ambibench/ambibench/results"
)

const evil = "<script>alert(1)</script>"

// viewRun makes a small tabletop run with transcripts, model as given.
func viewRun(t *testing.T, model string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if _, errOut, err := runCLI(t, "run", "--track", "tabletop", "--agents", "oracle,sgcot", "--model", model,
		"--episodes", "2", "--transcripts", "--out", dir); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut)
	}
	return dir
}

// viewRecords reads DIR/records.jsonl.
func viewRecords(t *testing.T, dir string) []results.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, recordsFileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := results.ReadRecords(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// sgcotWithCalls is the index of the first sgcot record that called the
// model.
func sgcotWithCalls(t *testing.T, recs []results.Record) int {
	t.Helper()
	for i, r := range recs {
		if r.Agent == "sgcot" && r.Calls > 0 {
			return i
		}
	}
	t.Fatal("no sgcot record with model calls")
	return -1
}

// rewriteLines applies edit to every line of a JSON Lines file.
func rewriteLines(t *testing.T, path string, edit func(line int, v map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for i := 0; sc.Scan(); i++ {
		var v map[string]any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		edit(i, v)
		line, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestViewSite(t *testing.T) {
	t.Parallel()
	dir := viewRun(t, "sim")
	recs := viewRecords(t, dir)
	// A record whose instruction, and a call whose reply, hold a script.
	target := sgcotWithCalls(t, recs)
	key := recs[target].Key()
	rewriteLines(t, filepath.Join(dir, recordsFileName), func(i int, v map[string]any) {
		if i == target {
			v["instruction"] = evil + " " + v["instruction"].(string)
		}
	})
	replied := false
	rewriteLines(t, filepath.Join(dir, "transcripts.jsonl"), func(_ int, v map[string]any) {
		if v["episode"] == key && !replied {
			if reply, ok := v["reply"].(map[string]any); ok {
				reply["text"] = "I reply " + evil
				replied = true
			}
		}
	})
	if !replied {
		t.Fatal("no call of the episode has a reply")
	}

	out, errOut, err := runCLI(t, "view", dir)
	if err != nil {
		t.Fatalf("view: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, fmt.Sprintf("%d episodes", len(recs))) || !strings.Contains(out, "bytes an episode with its transcript") {
		t.Errorf("view's output does not give the episodes and the sizes:\n%s", out)
	}
	site := filepath.Join(dir, "view")
	for _, f := range []string{"index.html", "app.js", "style.css", "data/records-000.js",
		"episodes/0.html", fmt.Sprintf("episodes/%d.html", len(recs)-1)} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("site lacks %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(site, fmt.Sprintf("episodes/%d.html", len(recs)))); err == nil {
		t.Errorf("site has a page past its last episode")
	}

	index := viewFile(t, filepath.Join(site, "index.html"))
	checkHTML(t, "index.html", index)
	if !strings.Contains(index, fmt.Sprintf(`<b id="record-count">%d</b>`, len(recs))) {
		t.Errorf("index.html does not count %d records", len(recs))
	}
	scored := 0
	for _, r := range recs {
		if r.Outcome == results.OutcomeScored {
			scored++
		}
	}
	if !strings.Contains(index, fmt.Sprintf("<tr data-count=\"scored\"><td>scored</td><td>%d</td></tr>", scored)) {
		t.Errorf("index.html does not count %d scored records", scored)
	}
	if strings.Contains(index, "transcript") && strings.Contains(index, "episodes/") {
		t.Errorf("index.html loads episode pages or transcripts")
	}
	if !strings.Contains(index, `<table class="report">`) {
		t.Errorf("index.html shows no table of the report")
	}

	// The data script: one row a record, the script escaped.
	js := viewFile(t, filepath.Join(site, "data/records-000.js"))
	body, ok := strings.CutPrefix(js, "AMBIBENCH.add(")
	body, ok2 := strings.CutSuffix(body, ");\n")
	if !ok || !ok2 {
		t.Fatalf("data/records-000.js is not one AMBIBENCH.add call: %.80q", js)
	}
	var rows [][]any
	if err := json.Unmarshal([]byte(body), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(recs) {
		t.Errorf("data/records-000.js holds %d rows, want %d", len(rows), len(recs))
	}
	if strings.Contains(js, "<script") || !strings.Contains(js, `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
		t.Errorf("data/records-000.js does not escape the instruction's script")
	}

	// The episode's page: the instruction and the reply shown as text.
	page := viewFile(t, filepath.Join(site, fmt.Sprintf("episodes/%d.html", target)))
	checkHTML(t, "the episode's page", page)
	if strings.Contains(page, "<script") {
		t.Errorf("the episode's page holds a script")
	}
	if n := strings.Count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"); n < 2 {
		t.Errorf("the episode's page shows the script as text %d times, want the instruction's and the reply's", n)
	}
	if !strings.Contains(page, "<h3>Call 1: sim;") {
		t.Errorf("the episode's page shows no model call")
	}
	if !strings.Contains(page, `<img src="../images/`) {
		t.Errorf("the episode's page shows no image the model was shown")
	}
	if m := regexp.MustCompile(`src="\.\./(images/[0-9a-f]+\.png)"`).FindStringSubmatch(page); m != nil {
		if _, err := os.Stat(filepath.Join(site, m[1])); err != nil {
			t.Errorf("the page shows %s, which the site lacks", m[1])
		}
	}
	oracle := viewFile(t, filepath.Join(site, "episodes/0.html"))
	if !strings.Contains(oracle, "The agent uses no model.") {
		t.Errorf("the oracle's page does not say it uses no model")
	}

	// Written again, the site is the same.
	if _, _, err := runCLI(t, "view", dir); err != nil {
		t.Fatal(err)
	}
	if again := viewFile(t, filepath.Join(site, "index.html")); again != index {
		t.Errorf("index.html differs when written again")
	}
}

func viewFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkHTML checks a page is a whole document whose block tags are
// balanced.
func checkHTML(t *testing.T, name, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "</html>") {
		t.Errorf("%s is not a whole HTML document", name)
	}
	for _, tag := range []string{"html", "head", "body", "table", "tr", "section", "pre", "div", "p", "details", "select", "form"} {
		open := len(regexp.MustCompile(`<`+tag+`[ >]`).FindAllString(page, -1))
		if closed := strings.Count(page, "</"+tag+">"); open != closed {
			t.Errorf("%s opens <%s> %d times and closes it %d times", name, tag, open, closed)
		}
	}
}

func TestViewCompare(t *testing.T) {
	t.Parallel()
	base, new := viewRun(t, "sim"), viewRun(t, "sim:weak")
	out, errOut, err := runCLI(t, "view", base, new)
	if err != nil {
		t.Fatalf("view: %v\n%s", err, errOut)
	}
	path := filepath.Join(new, "view", "compare.html")
	if !strings.Contains(out, "wrote "+path) {
		t.Errorf("view does not say it wrote %s:\n%s", path, out)
	}
	page := viewFile(t, path)
	checkHTML(t, "compare.html", page)
	if !strings.Contains(page, `<table class="report">`) {
		t.Error("compare.html shows no comparison table")
	}
	baseRecs, newRecs := viewRecords(t, base), viewRecords(t, new)
	rel, err := filepath.Rel(filepath.Join(new, "view"), filepath.Join(base, "view"))
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for i := range newRecs {
		b, n := baseRecs[i], newRecs[i]
		if b.EpisodeKey() != n.EpisodeKey() {
			t.Fatal("the runs' records are not in one order")
		}
		if b.Outcome != n.Outcome || b.Success != n.Success || b.ADA != n.ADA {
			changed++
			link := fmt.Sprintf(`<a href="%s/episodes/%d.html">`, filepath.ToSlash(rel), i)
			if !strings.Contains(page, link) || !strings.Contains(page, fmt.Sprintf(`<a href="episodes/%d.html">`, i)) {
				t.Errorf("compare.html does not link episode %d in both runs", i)
			}
		}
	}
	if changed == 0 {
		t.Fatal("sim and sim:weak changed no episode")
	}
	if !strings.Contains(page, fmt.Sprintf("%d of %d paired episodes changed", changed, len(newRecs))) {
		t.Errorf("compare.html does not count %d changed episodes", changed)
	}
	if !strings.Contains(viewFile(t, filepath.Join(new, "view", "index.html")), `<a href="compare.html">`) {
		t.Error("NEW's index does not link the comparison")
	}
}

// syncBuffer is a buffer the server's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestViewServe(t *testing.T) {
	t.Parallel()
	recs := []results.Record{{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop",
		Family: "pick_place", Perturbation: "none", Agent: "oracle", Seed: 1, Instruction: "Put it there. " + evil}}
	dir := writeRun(t, map[string]string{"track": "tabletop"}, recs, false)
	// A run without transcripts has its episodes a hundred a page.
	if _, _, err := runCLI(t, "view", dir); err != nil {
		t.Fatal(err)
	}
	group := viewFile(t, filepath.Join(dir, "view", "episodes", "g-000.html"))
	checkHTML(t, "episodes/g-000.html", group)
	if !strings.Contains(group, `<section class="episode" id="e0">`) || !strings.Contains(group, "Put it there. &lt;script&gt;alert(1)&lt;/script&gt;") ||
		strings.Contains(group, "<script") {
		t.Errorf("episodes/g-000.html does not show episode 0, its script as text:\n%s", group)
	}
	if !strings.Contains(group, "The agent uses no model.") {
		t.Errorf("episodes/g-000.html does not say the oracle uses no model")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- viewMain(ctx, &stdout, &stderr, []string{"--serve", "127.0.0.1:0", dir}) }()
	url := regexp.MustCompile(`serving .* at (http://127\.0\.0\.1:\d+/)`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; {
		select {
		case err := <-done:
			t.Fatalf("view --serve returned %v before serving\n%s%s", err, stdout.String(), stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("view --serve printed no URL:\n%s", stdout.String())
		}
		m = url.FindStringSubmatch(stdout.String())
	}
	resp, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<b id="record-count">1</b>`) {
		t.Errorf("GET %s: %s\n%.300s", m[1], resp.Status, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("view --serve, stopped: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("view --serve did not stop when its context was done")
	}
}

func TestViewErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	if err := results.WriteRunFile(empty, results.RunFile{Settings: map[string]string{"track": "tabletop"}}); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "view: missing DIR"},
		{[]string{empty}, empty + " holds neither " + recordsFileName},
		{[]string{missing}, missing + " does not exist"},
		{[]string{"a", "b", "c"}, "want DIR, or BASE and NEW"},
		{[]string{"--serve", "0.0.0.0:0", empty}, "want a loopback address"},
		// A site of the records before the cut was written, exit 0.
		{[]string{gzipCut(t, copyFixture(t, nil), 10, 20)}, "records.jsonl.gz: its gzip stream is cut short"},
	} {
		_, _, err := runCLI(t, append([]string{"view"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("view %q: error %v, want one that says %q", tc.args, err, tc.want)
		}
	}
	out, _, err := runCLI(t, "view", "--help")
	if err != nil || !strings.Contains(out, "Usage: ambibench view") {
		t.Errorf("view --help: %v\n%s", err, out)
	}
}
