package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// dryRunGrid prints what a run would play, episodes per agent and cell,
// and what it would cost: the calls and tokens per agent, measured by
// playing the same grid on the simulated model, whose workflows make the
// calls a real model's would (a real model's replies differ in length,
// and so, a little, do the prompts that follow them). Nothing is written.
func dryRunGrid(w io.Writer, jobs *bench.Grid, opts bench.Options) error {
	type cell struct{ agent, family, perturbation string }
	var order []cell
	count := map[cell]int{}
	for j := range jobs.All() {
		c := cell{j.Agent, j.Family, j.Perturbation}
		if j.Size != 0 {
			c.family = fmt.Sprintf("%s (%d objects)", j.Family, j.Size)
		}
		if count[c] == 0 {
			order = append(order, c)
		}
		count[c]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Dry run: %d episodes.\n\n| agent | task family | perturbation | episodes |\n| --- | --- | --- | --- |\n", jobs.Len())
	for _, c := range order {
		fmt.Fprintf(&b, "| %s | %s | %s | %d |\n", c.agent, c.family, c.perturbation, count[c])
	}
	if needsModel(jobs.Agents()) {
		est := opts
		m, err := models.Open(models.Default, nil)
		if err != nil {
			return err
		}
		est.Model, est.Members = m, nil
		type cost struct{ episodes, calls, in, out int }
		var agents []string
		costs := map[string]*cost{}
		est.OnRecord = func(_ bench.Job, r results.Record) {
			if r.Model == "" {
				return
			}
			c := costs[r.Agent]
			if c == nil {
				c = &cost{}
				costs[r.Agent] = c
				agents = append(agents, r.Agent)
			}
			c.episodes++
			c.calls += r.Calls
			c.in += r.InputTokens
			c.out += r.OutputTokens
		}
		if _, err := bench.Stream(context.Background(), est, nil, nil); err != nil {
			return fmt.Errorf("run: --dry-run: estimating on %s: %w", models.Default, err)
		}
		fmt.Fprintf(&b, "\nEstimated cost, from the same grid played on `%s` (a real model's replies differ in length):\n\n| agent | episodes | model calls | input tokens | output tokens |\n| --- | --- | --- | --- | --- |\n", models.Default)
		var total cost
		for _, a := range agents {
			c := costs[a]
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", a, c.episodes, c.calls, c.in, c.out)
			total.episodes += c.episodes
			total.calls += c.calls
			total.in += c.in
			total.out += c.out
		}
		fmt.Fprintf(&b, "| all | %d | %d | %d | %d |\n", total.episodes, total.calls, total.in, total.out)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
