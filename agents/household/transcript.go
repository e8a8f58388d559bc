package household

import (
	"context"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/prompt"
)

// transcript is a trial as the ReAct prompt and the call context hold it,
// kept up to date one step at a time. A decision used to render the whole
// prompt template and restate the whole trajectory in its context, so one
// at step 45 cost four to five times one at step 5; now each step is written
// once, when it is taken, and a decision only copies what is written into
// the prompt's string (see BenchmarkDecision). react_user.tmpl is the one
// source of the prompt's text: the transcript renders its head, steps and
// tail, and its prompt is byte for byte that template rendered whole
// (TestTranscriptIsTheTemplate).
type transcript struct {
	set     *prompt.Set // the templates of the run (run --prompts)
	head    string      // the text shape's instructions, the reflections, the task and the opening
	written []string    // each step as the prompt writes it
	size    int         // the bytes of written
	// lastList is the index of the latest listing of the admissible
	// commands (list), or -1: it is shown in full, and written again,
	// shortened, when a newer one comes.
	lastList int
	list     householdStep
	// house are the acts and asks, as the context restates them; contexts
	// share its array and see only its first elements.
	house []llm.HouseStep
	// reflections are the notes the prompt holds, as the context states
	// them.
	reflections []string
}

// newTranscript starts the transcript of a trial from its opening and the
// notes it is shown; text is the text shape, whose prompt begins with
// preamble, the instructions and worked games, and shows the opening as
// textOpening writes it, and so does the call's context (player.go). The
// templates are those of the run of ctx.
func newTranscript(ctx context.Context, preamble, opening string, trial int, reflections []agents.ReflectionRecord, text bool) (*transcript, error) {
	set := prompts.In(ctx)
	if text {
		opening = textOpening(opening)
	}
	head, err := set.Render("react_user_head", reactPrompt{Opening: opening, Reflections: reflectionViews(reflections, text), Trial: trial, Text: text})
	if err != nil {
		return nil, err
	}
	t := &transcript{set: set, head: preamble + head, lastList: -1}
	for _, r := range reflections {
		t.reflections = append(t.reflections, strings.TrimSpace(r.Text))
	}
	return t, nil
}

// add writes a step taken.
func (t *transcript) add(s householdStep) error {
	if s.Tool == agents.ToolAdmissible {
		if t.lastList >= 0 {
			// The listing that was the latest is stale now.
			if err := t.write(t.lastList, t.list, false); err != nil {
				return err
			}
		}
		t.lastList, t.list = len(t.written), s
	} else {
		t.house = append(t.house, llm.HouseStep{Tool: s.Tool, Command: s.Command, Question: s.Question, Result: s.Result})
	}
	t.written = append(t.written, "")
	return t.write(len(t.written)-1, s, true)
}

// write renders s, step i, as the prompt shows it.
func (t *transcript) write(i int, s householdStep, latest bool) error {
	w, err := t.set.Render("react_step", view(s, latest))
	if err != nil {
		return err
	}
	t.size += len(w) - len(t.written[i])
	t.written[i] = w
	return nil
}

// prompt is the user message of the next call: the head, every step, and
// the tail.
func (t *transcript) prompt(tail string) string {
	var b strings.Builder
	b.Grow(len(t.head) + t.size + len(tail))
	b.WriteString(t.head)
	for _, w := range t.written {
		b.WriteString(w)
	}
	b.WriteString(tail)
	return b.String()
}
