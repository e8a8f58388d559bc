//go:build browser

// The browser tier (make test-browser): ambibench view's site opened from
// the file system in headless Chromium, driven with chromedp. It needs a
// Chromium or Chrome binary: Debian's chromium package, or $CHROMIUM.

package cli

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ambibench/ambibench/results"
)

// browserInstall says how to get the browser the tier needs.
const browserInstall = "the browser tier needs Chromium: install Debian's package (apt-get install chromium) or set CHROMIUM to a Chromium or Chrome binary"

// chromiumPath is the browser the tier drives: $CHROMIUM, else the first
// of Debian's and the usual names on PATH.
func chromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("CHROMIUM=%s: %v; %s", p, err, browserInstall)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium, chromium-browser or google-chrome on PATH: %s", browserInstall)
}

// viewport is the fixed size of every page and screenshot.
const viewportW, viewportH = 1024, 768

// newBrowser starts headless Chromium for tb, closed at its end. The
// flags keep it off the network (this machine's is closed, and a test
// must not depend on one) and its rendering fixed: one device pixel a
// CSS pixel, no GPU, no scrollbars.
func newBrowser(tb testing.TB) context.Context {
	tb.Helper()
	path, err := chromiumPath()
	if err != nil {
		tb.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(viewportW, viewportH),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("font-render-hinting", "none"),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	tctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	tb.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(viewportW, viewportH)); err != nil {
		tb.Fatalf("starting %s: %v", path, err)
	}
	return tctx
}

// fileURL is the file:// URL of path, with an optional fragment.
func fileURL(tb testing.TB, path, fragment string) string {
	tb.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawFragment: fragment}
	return u.String()
}

// pwn is what a model reply holds in the browser test: were it read as
// HTML, it would mark the page.
const pwn = `<script>document.documentElement.dataset.pwned = "1"</script><img src=x onerror="document.documentElement.dataset.pwned='1'">`

// browserRuns writes, under the working directory, the small runs the
// tier opens, with transcripts: tabletop (base and, on a weaker
// simulated model, new), household and semmap. Their times are set to fixed values, so
// that the screenshots are of what the run did, not how fast it was.
func browserRuns(t *testing.T) {
	t.Helper()
	for _, args := range [][]string{
		{"--track", "tabletop", "--agents", "oracle,sgcot", "--model", "sim", "--episodes", "2", "--out", "base"},
		{"--track", "tabletop", "--agents", "oracle,sgcot", "--model", "sim:weak", "--episodes", "2", "--out", "new"},
		{"--track", "household", "--agents", "reflexion", "--model", "sim", "--episodes", "1", "--out", "household"},
		{"--track", "semmap", "--agents", "oracle,baseline,self-reflect", "--model", "sim", "--episodes", "3", "--out", "semmap"},
	} {
		full := append([]string{"run", "--transcripts"}, args...)
		if _, errOut, err := runCLI(t, full...); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(full, " "), err, errOut)
		}
		dir := args[len(args)-1]
		rewriteLines(t, filepath.Join(dir, recordsFileName), func(_ int, v map[string]any) {
			v["wall_ms"] = 12.5
			for _, k := range []string{"latency_p50_ms", "latency_p95_ms"} {
				if _, ok := v[k]; ok {
					v[k] = 3
				}
			}
		})
		rewriteLines(t, filepath.Join(dir, "transcripts.jsonl"), func(_ int, v map[string]any) {
			if _, ok := v["latency"]; ok {
				v["latency"] = 3000000
			}
		})
	}
}

func TestBrowserView(t *testing.T) {
	t.Chdir(t.TempDir())
	browserRuns(t)
	// A reply of the first sgcot episode with calls holds markup.
	recs := viewRecords(t, "base")
	target := sgcotWithCalls(t, recs)
	replied := false
	rewriteLines(t, filepath.Join("base", "transcripts.jsonl"), func(_ int, v map[string]any) {
		if v["episode"] == recs[target].Key() && !replied {
			if reply, ok := v["reply"].(map[string]any); ok {
				reply["text"] = "I reply " + pwn + " " + reply["text"].(string)
				replied = true
			}
		}
	})
	for _, args := range [][]string{{"household"}, {"semmap"}, {"base", "new"}} {
		if _, errOut, err := runCLI(t, append([]string{"view"}, args...)...); err != nil {
			t.Fatalf("view %s: %v\n%s", strings.Join(args, " "), err, errOut)
		}
	}
	ctx := newBrowser(t)

	t.Run("index", func(t *testing.T) { browserIndex(t, ctx, "base", recs) })
	t.Run("cell", func(t *testing.T) { browserCell(t, ctx, "base", recs) })
	t.Run("episode", func(t *testing.T) { browserEpisode(t, ctx, "base", recs, target) })
	t.Run("household", func(t *testing.T) { browserHousehold(t, ctx, "household") })
	t.Run("semmap", func(t *testing.T) { browserSemmap(t, ctx, "semmap") })
	t.Run("compare", func(t *testing.T) { browserCompare(t, ctx, "base", "new") })
}

// openPage loads a page of a site and waits for it to have run its scripts.
func openPage(t *testing.T, ctx context.Context, path, fragment string) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(fileURL(t, path, fragment)),
		chromedp.WaitReady(chromedp.CSS("body")),
	); err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	// The fonts are files of the site: wait for them, or a screenshot
	// may be of the fallback.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for %s's fonts: %v", path, err)
	}
}

// evalJS evaluates js in the page and decodes its value into out.
func evalJS[T any](t *testing.T, ctx context.Context, js string, out *T) {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	*out = v
}

// scrollTo scrolls the page to the first element of a CSS selector.
func scrollTo(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	var found bool
	evalJS(t, ctx, fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return false;
		e.scrollIntoView({block: "start"});
		return true;
	})()`, sel), &found)
	if !found {
		t.Fatalf("the page has no %s to scroll to", sel)
	}
}

// notPwned fails t if markup of a model reply ran as HTML.
func notPwned(t *testing.T, ctx context.Context) {
	t.Helper()
	var pwned string
	evalJS(t, ctx, `document.documentElement.dataset.pwned || ""`, &pwned)
	if pwned != "" {
		t.Error("markup of a model reply ran in the page")
	}
}

func browserIndex(t *testing.T, ctx context.Context, dir string, recs []results.Record) {
	openPage(t, ctx, filepath.Join(dir, "view", "index.html"), "")
	var count, shown string
	var rows int
	var fontOK bool
	evalJS(t, ctx, `document.getElementById("record-count").textContent`, &count)
	evalJS(t, ctx, `document.getElementById("shown").textContent`, &shown)
	evalJS(t, ctx, `document.querySelectorAll("#records tbody tr").length`, &rows)
	evalJS(t, ctx, `document.fonts.check('14px "ambibench"') && [...document.fonts].some(f => f.family === "ambibench" && f.status === "loaded")`, &fontOK)
	if count != strconv.Itoa(len(recs)) {
		t.Errorf("the index counts %s records, want %d", count, len(recs))
	}
	if rows != len(recs) {
		t.Errorf("the episode table has %d rows, want %d", rows, len(recs))
	}
	if want := fmt.Sprintf("Showing %d of %d episodes", len(recs), len(recs)); !strings.Contains(shown, want) {
		t.Errorf("the index says %q, want %q", shown, want)
	}
	if !fontOK {
		t.Error("the site's own font did not load from the file system")
	}
	var counts map[string]string
	evalJS(t, ctx, `Object.fromEntries([...document.querySelectorAll("#counts tr[data-count]")].map(tr => [tr.dataset.count, tr.cells[1].textContent]))`, &counts)
	byOutcome := map[string]int{"records": len(recs)}
	for _, r := range recs {
		byOutcome[r.Outcome]++
	}
	for _, o := range []string{"records", results.OutcomeScored, results.OutcomeAgentError, results.OutcomeInfraError} {
		if counts[o] != strconv.Itoa(byOutcome[o]) {
			t.Errorf("the index counts %s %q, want %d", o, counts[o], byOutcome[o])
		}
	}
	var plots []string
	evalJS(t, ctx, `[...document.querySelectorAll("#report figure img")].filter(i => i.complete && i.naturalWidth > 0).map(i => i.getAttribute("src"))`, &plots)
	if len(plots) == 0 || !strings.HasSuffix(plots[0], ".svg") {
		t.Errorf("the report shows the plots %q, want SVG plots that load", plots)
	}
	screenshot(t, ctx, "index")
}

// browserCell clicks a report cell's link and checks the table holds
// that cell's failures, and only them.
func browserCell(t *testing.T, ctx context.Context, dir string, recs []results.Record) {
	openPage(t, ctx, filepath.Join(dir, "view", "index.html"), "")
	// The first cell of an agent with failures in its perturbation.
	var href string
	evalJS(t, ctx, `(() => {
		const links = [...document.querySelectorAll('#report a[title="the failures of this cell"]')];
		const l = links.find(a => !a.textContent.startsWith("1.00"));
		if (!l) return "";
		l.click();
		return l.getAttribute("href");
	})()`, &href)
	if href == "" {
		t.Fatal("the report has no cell that links to its failures")
	}
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	q, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	agent, pert := q.Get("agent"), q.Get("perturbation")
	want := 0
	for _, r := range recs {
		if r.Agent == agent && r.Perturbation == pert && !r.Success {
			want++
		}
	}
	var got [][]string
	if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	evalJS(t, ctx, `[...document.querySelectorAll("#records tbody tr")].map(tr => [tr.cells[1].textContent, tr.cells[4].textContent, tr.cells[6].textContent])`, &got)
	if len(got) != want {
		t.Errorf("after clicking the cell of %s on %s, the table has %d rows, want its %d failures", agent, pert, len(got), want)
	}
	for _, row := range got {
		if row[0] != agent || row[1] != pert || row[2] != "no" {
			t.Errorf("the filtered table holds %q, not a failure of %s on %s", row, agent, pert)
		}
	}
	var selected []string
	evalJS(t, ctx, `[...document.querySelectorAll("#filters select")].map(s => s.value)`, &selected)
	if len(selected) < 6 || selected[0] != agent || selected[3] != pert || selected[5] != "0" {
		t.Errorf("the filters show %q after the click, want agent %s, perturbation %s, failures", selected, agent, pert)
	}
	screenshot(t, ctx, "index-cell")
}

func browserEpisode(t *testing.T, ctx context.Context, dir string, recs []results.Record, n int) {
	openPage(t, ctx, filepath.Join(dir, "view", "episodes", strconv.Itoa(n)+".html"), "")
	var calls, images, loaded int
	var instruction, replies string
	evalJS(t, ctx, `document.querySelectorAll(".call").length`, &calls)
	evalJS(t, ctx, `document.querySelectorAll(".call img").length`, &images)
	evalJS(t, ctx, `[...document.querySelectorAll(".call img")].filter(i => i.complete && i.naturalWidth > 0).length`, &loaded)
	evalJS(t, ctx, `document.getElementById("instruction").textContent`, &instruction)
	evalJS(t, ctx, `[...document.querySelectorAll(".m.reply pre")].map(p => p.textContent).join("\n")`, &replies)
	if calls != recs[n].Calls {
		t.Errorf("the episode's page shows %d model calls, the record counts %d", calls, recs[n].Calls)
	}
	if images == 0 || loaded != images {
		t.Errorf("the episode's page shows %d images of which %d loaded, want the images its robots were shown", images, loaded)
	}
	if instruction != recs[n].Instruction {
		t.Errorf("the page's instruction is %q, want %q", instruction, recs[n].Instruction)
	}
	if !strings.Contains(replies, "I reply "+pwn) {
		t.Errorf("the reply's markup is not shown as text; replies:\n%.300s", replies)
	}
	notPwned(t, ctx)
	screenshot(t, ctx, "episode-tabletop")
	scrollTo(t, ctx, ".call img")
	screenshot(t, ctx, "episode-tabletop-call")
}

func browserHousehold(t *testing.T, ctx context.Context, dir string) {
	recs := viewRecords(t, dir)
	n := -1
	for i, r := range recs {
		if r.Reflections > 0 {
			n = i
			break
		}
	}
	if n < 0 {
		t.Fatal("no household episode reflected")
	}
	openPage(t, ctx, filepath.Join(dir, "view", "episodes", strconv.Itoa(n)+".html"), "")
	var trials, reflections int
	var first string
	evalJS(t, ctx, `document.querySelectorAll(".trial").length`, &trials)
	evalJS(t, ctx, `document.querySelectorAll(".trial pre.reflection").length`, &reflections)
	evalJS(t, ctx, `(document.querySelector(".trial pre.game") || {}).textContent || ""`, &first)
	if trials != recs[n].Trials {
		t.Errorf("the page shows %d trials, the record played %d", trials, recs[n].Trials)
	}
	if reflections != recs[n].Reflections {
		t.Errorf("the page shows %d reflections, the record made %d", reflections, recs[n].Reflections)
	}
	if !strings.Contains(first, "You are in the middle of a room") {
		t.Errorf("the first trial's text is not the game's:\n%.300s", first)
	}
	screenshot(t, ctx, "episode-household")
	scrollTo(t, ctx, ".trial")
	screenshot(t, ctx, "episode-household-game")
}

func browserSemmap(t *testing.T, ctx context.Context, dir string) {
	recs := viewRecords(t, dir)
	// An episode whose answer missed: the map shows both colours.
	n := -1
	for i, r := range recs {
		if len(r.Answer) > 0 && len(r.Truth) > 0 && !r.Top1 {
			n = i
			break
		}
	}
	if n < 0 {
		for i, r := range recs {
			if len(r.Answer) > 0 {
				n = i
				break
			}
		}
	}
	if n < 0 {
		t.Fatal("no semmap episode answered")
	}
	r := recs[n]
	openPage(t, ctx, filepath.Join(dir, "view", "episodes", strconv.Itoa(n)+".html"), "")
	var boxes map[string][]string
	evalJS(t, ctx, fmt.Sprintf(`(() => {
		const svg = document.querySelector("svg.map");
		if (!svg) return {};
		const out = {};
		svg.querySelectorAll("g[class]").forEach(g => { (out[g.getAttribute("class")] ||= []).push(g.querySelector("title").textContent.split(" ")[0]); });
		return out;
	})()`), &boxes)
	if len(boxes) == 0 {
		t.Fatalf("episode %d's section draws no map", n)
	}
	for _, id := range r.Answer {
		kind := "answer"
		if slices.Contains(r.Truth, id) {
			kind = "both"
		}
		if !slices.Contains(boxes[kind], id) {
			// An answered id the map lacks is a hallucination: the
			// answer table says so; the map cannot draw it.
			if r.Hallucinated == 0 {
				t.Errorf("answered %s is not drawn as %s: %v", id, kind, boxes)
			}
		}
	}
	for _, id := range r.Truth {
		if !slices.Contains(boxes["both"], id) && !slices.Contains(boxes["truth"], id) {
			t.Errorf("true %s is not marked on the map: %v", id, boxes)
		}
	}
	scrollTo(t, ctx, "h2.map")
	screenshot(t, ctx, "episode-semmap")
}

func browserCompare(t *testing.T, ctx context.Context, base, new string) {
	openPage(t, ctx, filepath.Join(new, "view", "compare.html"), "")
	baseRecs, newRecs := viewRecords(t, base), viewRecords(t, new)
	changed := 0
	for i := range newRecs {
		b, n := baseRecs[i], newRecs[i]
		if b.Outcome != n.Outcome || b.Success != n.Success || b.ADA != n.ADA {
			changed++
		}
	}
	var rows, tables int
	evalJS(t, ctx, `document.querySelectorAll("#changed tbody tr").length`, &rows)
	evalJS(t, ctx, `document.querySelectorAll("table.report").length`, &tables)
	if rows != changed {
		t.Errorf("the comparison lists %d changed episodes, want %d", rows, changed)
	}
	if tables == 0 {
		t.Error("the comparison shows no table of compare's")
	}
	screenshot(t, ctx, "compare")
	if changed == 0 {
		return
	}
	// Both of the first changed episode's links open its page.
	for col := 1; col <= 2; col++ {
		openPage(t, ctx, filepath.Join(new, "view", "compare.html"), "")
		if err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(fmt.Sprintf("#changed tbody tr:first-child td:nth-child(%d) a", col+1))),
			chromedp.WaitVisible(chromedp.CSS(".key")),
		); err != nil {
			t.Fatalf("following the changed episode's link %d: %v", col, err)
		}
		title, err := chromedp.Run(ctx, chromedp.Title())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(title, "Episode ") {
			t.Errorf("the changed episode's link %d opens %q", col, title)
		}
	}
}

// The screenshots' tolerance: a pixel differs when a channel differs by
// more than pixelDelta, and a screenshot matches its golden image when at
// most maxDiffering of its pixels differ (anti-aliasing moves between
// builds of one browser; a layout change moves far more).
const (
	pixelDelta   = 40
	maxDiffering = 0.002
)

// screenshot captures the viewport and compares it with
// testdata/screenshots/NAME.png, which -update rewrites.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	golden := filepath.Join(testdataDir(t), "screenshots", name+".png")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -tags browser -run TestBrowserView -update writes it)", err)
	}
	diff, frac, err := comparePNG(buf, want)
	if err != nil {
		t.Fatalf("%s: %v", golden, err)
	}
	if frac > maxDiffering {
		got := filepath.Join(os.TempDir(), "ambibench-"+name+".png")
		_ = os.WriteFile(got, buf, 0o644)
		t.Errorf("%s: %.2f%% of the pixels differ (%d), more than %.2f%%: the page is at %s (-update rewrites the golden image)",
			golden, 100*frac, diff, 100*maxDiffering, got)
	}
}

// packageDir is the package's directory, the tests' working directory
// before TestBrowserView changes it.
var packageDir, _ = os.Getwd()

// testdataDir is the package's testdata directory.
func testdataDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(packageDir, "testdata")
}

// comparePNG counts the pixels of a and b that differ by more than
// pixelDelta in a channel, and their share.
func comparePNG(a, b []byte) (int, float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, 0, fmt.Errorf("the screenshot: %v", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, 0, fmt.Errorf("the golden image: %v", err)
	}
	if ia.Bounds().Size() != ib.Bounds().Size() {
		return 0, 0, fmt.Errorf("the screenshot is %v, the golden image %v", ia.Bounds().Size(), ib.Bounds().Size())
	}
	r := ia.Bounds()
	n := 0
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			if differ(ia.At(r.Min.X+x, r.Min.Y+y), ib.At(ib.Bounds().Min.X+x, ib.Bounds().Min.Y+y)) {
				n++
			}
		}
	}
	return n, float64(n) / float64(r.Dx()*r.Dy()), nil
}

func differ(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	d := func(x, y uint32) bool {
		x, y = x>>8, y>>8
		if x > y {
			return x-y > pixelDelta
		}
		return y-x > pixelDelta
	}
	return d(ar, br) || d(ag, bg) || d(ab, bb) || d(aa, ba)
}

// benchSite is the site the browser benchmarks open: make bench's
// tabletop run's, or $AMBIBENCH_VIEW_SITE.
func benchSite(b *testing.B) string {
	b.Helper()
	dir := os.Getenv("AMBIBENCH_VIEW_SITE")
	if dir == "" {
		dir = filepath.Join(packageDir, "..", "..", "..", "out", "tabletop", "view")
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		b.Fatalf("%v: run make bench first (it writes out/tabletop/view/), or set AMBIBENCH_VIEW_SITE to a site's directory", err)
	}
	return dir
}

// BenchmarkBrowserViewIndex opens the index of a large run in headless
// Chromium (load: from navigation until the episode table is shown) and
// filters it (cell: to one cell's failures, as a report cell's link
// does; all: back to every episode, the first 500 shown). The filters'
// page-ms/op is measured in the page, from the change of the selects
// until the table is laid out; ns/op adds the round trip of the
// DevTools protocol.
func BenchmarkBrowserViewIndex(b *testing.B) {
	site := benchSite(b)
	ctx := newBrowser(b)
	index := fileURL(b, filepath.Join(site, "index.html"), "")
	load := func(b *testing.B) {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(index),
			chromedp.WaitVisible(chromedp.CSS("#records tbody tr")),
		); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("load", func(b *testing.B) {
		var rows int
		for b.Loop() {
			load(b)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.AMBIBENCH.rows.length`))
		if err != nil {
			b.Fatal(err)
		}
		rows = v
		b.ReportMetric(float64(rows), "episodes")
	})
	// filter sets the selects (agent, perturbation, success) and reports
	// the page's own time to filter and lay out the table.
	filter := func(b *testing.B, agent, pert, success string) float64 {
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(() => {
			const t0 = performance.now();
			const set = {1: %q, 4: %q, 6: %q};
			const sels = document.querySelectorAll("#filters select");
			sels.forEach(s => { s.value = set[s.dataset.col] || ""; });
			sels[0].dispatchEvent(new Event("change"));
			document.body.offsetHeight;
			return performance.now() - t0;
		})()`, agent, pert, success)))
		if err != nil {
			b.Fatal(err)
		}
		return ms
	}
	load(b)
	for _, bc := range []struct{ name, agent, pert, success string }{
		{"cell", "sgcot", "absence", "0"},
		{"all", "", "", ""},
	} {
		b.Run("filter-"+bc.name, func(b *testing.B) {
			total := 0.0
			for b.Loop() {
				b.StopTimer()
				if bc.name == "cell" {
					filter(b, "", "", "")
				} else {
					filter(b, "sgcot", "absence", "0")
				}
				b.StartTimer()
				total += filter(b, bc.agent, bc.pert, bc.success)
			}
			b.ReportMetric(total/float64(b.N), "page-ms/op")
		})
	}
}
