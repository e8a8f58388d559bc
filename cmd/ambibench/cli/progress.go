package cli

import (
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// progress shows a running grid on stderr: episodes done of total per
// agent, the rate, an ETA and the errors so far. On a terminal the line is
// redrawn in place, at most every redraw, and fitted to the terminal's
// width, read at each redraw, so that it never wraps (a wrapped line is
// not redrawn in place but left behind, a screenful of them on a narrow
// terminal); elsewhere (a log file, CI) a plain line, whole, is printed
// every every. It is fed by bench.Options.OnRecord, which calls it from
// one goroutine.
type progress struct {
	w      io.Writer
	tty    bool
	width  func() int    // the terminal's columns; 0 when unknown
	redraw time.Duration // on a terminal
	every  time.Duration // elsewhere
	now    func() time.Time

	start, last     time.Time
	agents          []string
	total, done     map[string]int
	all, finished   int
	agentErr, infra int
	drawn           bool
}

// fallbackWidth is the width assumed for a terminal that does not say
// its own.
const fallbackWidth = 80

func newProgress(w io.Writer, todo []bench.Job) *progress {
	return newProgressOf(w, slices.Values(todo))
}

// newProgressOf is newProgress of the jobs todo yields, which it counts
// without keeping.
func newProgressOf(w io.Writer, todo iter.Seq[bench.Job]) *progress {
	p := &progress{w: w, redraw: 200 * time.Millisecond, every: 10 * time.Second, now: time.Now,
		total: map[string]int{}, done: map[string]int{}}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		p.width = func() int {
			cols, _, err := term.GetSize(int(f.Fd()))
			if err != nil || cols <= 0 {
				return fallbackWidth
			}
			return cols
		}
	}
	for j := range todo {
		if p.total[j.Agent] == 0 {
			p.agents = append(p.agents, j.Agent)
		}
		p.total[j.Agent]++
		p.all++
	}
	p.start, p.last = p.now(), p.now()
	return p
}

func (p *progress) record(j bench.Job, r results.Record) {
	p.done[j.Agent]++
	p.finished++
	switch r.Outcome {
	case results.OutcomeAgentError:
		p.agentErr++
	case results.OutcomeInfraError:
		p.infra++
	}
	now := p.now()
	gap := p.every
	if p.tty {
		gap = p.redraw
	}
	if now.Sub(p.last) < gap && p.finished < p.all {
		return
	}
	p.last = now
	if p.tty {
		// One column short of the width: a line that fills the last
		// column leaves some terminals about to wrap.
		width := fallbackWidth
		if p.width != nil {
			width = p.width()
		}
		fmt.Fprintf(p.w, "\r\x1b[K%s", p.parts(now).fit(max(width-1, 1)))
		p.drawn = true
		return
	}
	fmt.Fprintln(p.w, p.line(now))
}

// line is the state of the run in one line, whole.
func (p *progress) line(now time.Time) string { return p.parts(now).fit(0) }

// parts is the state of the run, in the pieces fit lays out.
func (p *progress) parts(now time.Time) progressParts {
	pp := progressParts{head: fmt.Sprintf("ambibench: %d/%d episodes", p.finished, p.all)}
	for _, a := range p.agents {
		pp.agents = append(pp.agents, fmt.Sprintf("%s %d/%d", a, p.done[a], p.total[a]))
	}
	if elapsed := now.Sub(p.start); p.finished > 0 && elapsed > 0 {
		rate := float64(p.finished) / elapsed.Seconds()
		eta := time.Duration(float64(p.all-p.finished) / rate * float64(time.Second))
		pp.rate = fmt.Sprintf(", %.1f/s, ETA %s", rate, eta.Round(time.Second))
	}
	pp.errs = fmt.Sprintf(", %d agent %s, %d infrastructure %s", p.agentErr, plural(p.agentErr, "error", "errors"), p.infra, plural(p.infra, "error", "errors"))
	pp.short = fmt.Sprintf(", errors %d agent, %d infra", p.agentErr, p.infra)
	return pp
}

// progressParts are the pieces of a progress line, most needed first.
type progressParts struct {
	head   string   // "ambibench: 12/300 episodes"
	agents []string // "oracle 4/100", one per agent, in grid order
	rate   string   // ", 3.1/s, ETA 1m30s", or "" before the first episode
	errs   string   // ", 0 agent errors, 1 infrastructure error"
	short  string   // the same, shorter: ", errors 0 agent, 1 infra"
}

// fit lays the parts out in one line of at most width columns; 0 means
// no limit (not a terminal), and the line is whole. What does not fit
// goes, least needed first: the agents' counts from the last (the agents
// left out counted as "+N more"), then the long form of the errors; a
// line that still does not fit is cut, ending in "…".
func (pp progressParts) fit(width int) string {
	agents := func(n int) string {
		if n == 0 {
			return ""
		}
		s := " (" + strings.Join(pp.agents[:n], ", ")
		if n < len(pp.agents) {
			s += fmt.Sprintf(", +%d more", len(pp.agents)-n)
		}
		return s + ")"
	}
	whole := pp.head + agents(len(pp.agents)) + pp.rate + pp.errs
	if width <= 0 || columns(whole) <= width {
		return whole
	}
	tail := pp.rate + pp.errs
	if columns(pp.head+tail) > width {
		tail = pp.rate + pp.short
	}
	for n := len(pp.agents); n >= 0; n-- {
		if s := pp.head + agents(n) + tail; columns(s) <= width {
			return s
		}
	}
	s := pp.head + tail
	if width == 1 {
		return "…"
	}
	runes := []rune(s)
	return string(runes[:width-1]) + "…"
}

// columns is the width of s on a terminal: one column a rune, as the
// progress line holds no wide or combining characters.
func columns(s string) int { return utf8.RuneCountInString(s) }

// end ends a line drawn in place, so that what follows starts afresh.
func (p *progress) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
