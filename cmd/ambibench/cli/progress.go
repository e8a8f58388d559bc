package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// progress shows a running grid on stderr: episodes done of total per
// agent, the rate, an ETA and the errors so far. On a terminal the line is
// redrawn in place, at most every redraw; elsewhere (a log file, CI) a
// plain line is printed every every. It is fed by bench.Options.OnRecord,
// which calls it from one goroutine.
type progress struct {
	w      io.Writer
	tty    bool
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

func newProgress(w io.Writer, todo []bench.Job) *progress {
	p := &progress{w: w, tty: isTerminal(w), redraw: 200 * time.Millisecond, every: 10 * time.Second, now: time.Now,
		total: map[string]int{}, done: map[string]int{}}
	for _, j := range todo {
		if p.total[j.Agent] == 0 {
			p.agents = append(p.agents, j.Agent)
		}
		p.total[j.Agent]++
	}
	p.all = len(todo)
	p.start, p.last = p.now(), p.now()
	return p
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
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
		fmt.Fprintf(p.w, "\r\x1b[K%s", p.line(now))
		p.drawn = true
		return
	}
	fmt.Fprintln(p.w, p.line(now))
}

// line is the state of the run in one line.
func (p *progress) line(now time.Time) string {
	var parts []string
	for _, a := range p.agents {
		parts = append(parts, fmt.Sprintf("%s %d/%d", a, p.done[a], p.total[a]))
	}
	elapsed := now.Sub(p.start)
	s := fmt.Sprintf("ambibench: %d/%d episodes (%s)", p.finished, p.all, strings.Join(parts, ", "))
	if p.finished > 0 && elapsed > 0 {
		rate := float64(p.finished) / elapsed.Seconds()
		eta := time.Duration(float64(p.all-p.finished) / rate * float64(time.Second))
		s += fmt.Sprintf(", %.1f/s, ETA %s", rate, eta.Round(time.Second))
	}
	return s + fmt.Sprintf(", %d agent %s, %d infrastructure %s", p.agentErr, plural(p.agentErr, "error", "errors"), p.infra, plural(p.infra, "error", "errors"))
}

// end ends a line drawn in place, so that what follows starts afresh.
func (p *progress) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
