package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// fit keeps the line whole where it fits or where there is no width, and
// otherwise drops the agents' counts from the last, then the long form of
// the errors, then cuts, never passing the width.
func TestProgressFit(t *testing.T) {
	t.Parallel()
	pp := progressParts{
		head:   "ambibench: 12/300 episodes",
		agents: []string{"oracle 4/100", "rules 4/100", "random 4/100"},
		rate:   ", 3.1/s, ETA 1m30s",
		errs:   ", 0 agent errors, 1 infrastructure error",
		short:  ", errors 0 agent, 1 infra",
	}
	whole := "ambibench: 12/300 episodes (oracle 4/100, rules 4/100, random 4/100), 3.1/s, ETA 1m30s, 0 agent errors, 1 infrastructure error"
	for _, tc := range []struct {
		why   string
		parts progressParts
		width int
		want  string
	}{
		{"no width: not a terminal, the line whole", pp, 0, whole},
		{"wide enough", pp, 200, whole},
		{"exactly wide enough", pp, columns(whole), whole},
		{"one column short: the last agent goes", pp, columns(whole) - 1,
			"ambibench: 12/300 episodes (oracle 4/100, rules 4/100, +1 more), 3.1/s, ETA 1m30s, 0 agent errors, 1 infrastructure error"},
		{"two agents go", pp, 110,
			"ambibench: 12/300 episodes (oracle 4/100, +2 more), 3.1/s, ETA 1m30s, 0 agent errors, 1 infrastructure error"},
		{"100 columns: no agent fits", pp, 99,
			"ambibench: 12/300 episodes, 3.1/s, ETA 1m30s, 0 agent errors, 1 infrastructure error"},
		{"the short errors", pp, 83,
			"ambibench: 12/300 episodes, 3.1/s, ETA 1m30s, errors 0 agent, 1 infra"},
		{"cut", pp, 40, "ambibench: 12/300 episodes, 3.1/s, ETA …"},
		{"the short errors with an agent", progressParts{head: "ambibench: 1/2 episodes", agents: []string{"a 1/2"}, errs: ", 0 agent errors, 0 infrastructure errors", short: ", errors 0 agent, 0 infra"}, 60,
			"ambibench: 1/2 episodes (a 1/2), errors 0 agent, 0 infra"},
		{"one column", pp, 1, "…"},
		{"before the first episode: no rate", progressParts{head: "ambibench: 0/3 episodes", agents: []string{"a 0/3"}, errs: ", 0 agent errors, 0 infrastructure errors", short: ", errors 0 agent, 0 infra"}, 60,
			"ambibench: 0/3 episodes (a 0/3), errors 0 agent, 0 infra"},
		{"names wider than a byte each", progressParts{head: "ambibench: 1/2 episodes", agents: []string{"über 1/2"}, errs: ", 0 agent errors, 0 infrastructure errors", short: ", errors 0 agent, 0 infra"}, 59,
			"ambibench: 1/2 episodes (über 1/2), errors 0 agent, 0 infra"},
	} {
		got := tc.parts.fit(tc.width)
		if got != tc.want {
			t.Errorf("%s: fit(%d) =\n%q\nwant\n%q", tc.why, tc.width, got, tc.want)
		}
		if tc.width > 0 && columns(got) > tc.width {
			t.Errorf("%s: %d columns, more than %d", tc.why, columns(got), tc.width)
		}
	}
}

// On a terminal of 100 columns the default tabletop grid's line (22
// agents, about 300 characters whole) is redrawn in one line of at most
// 99 columns, and the width is read again at each redraw.
func TestProgressFitsTheTerminal(t *testing.T) {
	t.Parallel()
	var jobs []bench.Job
	for i := range 22 {
		for range 3 {
			jobs = append(jobs, bench.Job{Agent: fmt.Sprintf("agent-number-%d", i)})
		}
	}
	var b bytes.Buffer
	p := newProgress(&b, jobs)
	width := 100
	p.tty, p.width = true, func() int { return width }
	clock := p.start
	p.now = func() time.Time { return clock }
	if whole := p.line(clock.Add(time.Second)); columns(whole) < 300 {
		t.Fatalf("the whole line is %d columns, want the long line of the issue", columns(whole))
	}
	for i, j := range jobs {
		clock = clock.Add(time.Second)
		if i == len(jobs)/2 {
			width = 60
		}
		p.record(j, results.Record{Outcome: results.OutcomeScored})
	}
	p.end()
	draws := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\r\x1b[K")[1:]
	if len(draws) != len(jobs) || strings.Contains(b.String()[:len(b.String())-1], "\n") {
		t.Fatalf("%d redraws, want %d, each in place", len(draws), len(jobs))
	}
	for i, d := range draws {
		limit := 99
		if i >= len(jobs)/2 {
			limit = 59
		}
		if columns(d) > limit || !strings.HasPrefix(d, fmt.Sprintf("ambibench: %d/66 episodes", i+1)) {
			t.Errorf("redraw %d (%d columns, limit %d): %q", i, columns(d), limit, d)
		}
	}
}
