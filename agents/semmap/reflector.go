package semmap

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// The reflector is what self-reflect and multi-agent-reflect share: the
// rounds of answer, reflect and refine. The two differ in their prompts
// only.

// ReflectOptions configure the reflection workflows.
type ReflectOptions struct {
	// Iterations is the number of reflect-and-refine rounds.
	Iterations int
	// Memory shows every earlier answer and critique to the reflect and
	// refine prompts (the agentic-workflows paper, eq. 5–6); without it
	// they see only the last answer and its critique.
	Memory bool
	// StopWhenStable ends the rounds early once a refinement lists the
	// same objects, in the same order, as the answer it revised.
	StopWhenStable bool
	// Examples are the in-context example counts of the planning,
	// reflection and refinement prompts (PaperExamples by default).
	Examples ExampleCounts
	// Attempts is how many times a planning or refinement prompt is sent
	// while its JSON reply cannot be read; PaperAttempts when not
	// positive. (A critique is plain text: any reply is one.)
	Attempts int
}

// semmapTemplates are the prompts of one reflection workflow.
type semmapTemplates struct{ plan, reflect, refine string }

// semmapReflector plays a reflection workflow: self-reflection with task
// prompts, multi-agent reflection with role prompts. The steps are the
// same; what differs is how each prompt frames the model.
type semmapReflector struct {
	name  string
	model llm.Model
	opts  ReflectOptions
	tmpl  semmapTemplates

	drafts      [][]string
	reflections []agents.ReflectionRecord
}

func (a *semmapReflector) Drafts() [][]string                     { return a.drafts }
func (a *semmapReflector) Reflections() []agents.ReflectionRecord { return a.reflections }

// Run answers, then reflects and refines; the answer given is the last
// refinement, as the agentic-workflows paper scores it. A plan or a
// refinement whose reply cannot be read is asked for again, up to
// Attempts in all. A refinement that none of its attempts could read
// before the last round leaves the answer as it was for the next round to
// revise (the round is counted, its critique kept, the loss reported);
// when the last refinement, or with no rounds the first answer, cannot be
// read, there is no answer and the episode is a miss.
func (a *semmapReflector) Run(ctx context.Context, env agents.Env) error {
	a.drafts, a.reflections = nil, nil
	s, err := openSemmap(ctx, a.name, a.model, env)
	if err != nil {
		return err
	}
	cur, perr, err := s.plan(ctx, a.tmpl.plan, a.opts.Examples, nil, 0, a.opts.Attempts)
	if err != nil {
		return err
	}
	if perr != nil {
		return s.answer(ctx, cur, perr)
	}
	a.drafts = append(a.drafts, cur.RelevantObjects)
	var answers, feedback []string // y0…yt and fb0…fb(t-1), as written
	var unread []string
	var lastErr error // the last refinement's, if it could not be read
	for t := range a.opts.Iterations {
		answers = append(answers, FormatAnswer(cur))
		fb, tokens, err := a.reflect(ctx, s, answers, feedback)
		if err != nil {
			return err
		}
		feedback = append(feedback, fb)
		next, tokensRefine, perr, err := a.refine(ctx, s, answers, feedback)
		if err != nil {
			return err
		}
		if perr != nil {
			unread = append(unread, fmt.Sprintf("round %d: %v", t+1, perr))
			next = cur
		}
		a.reflections = append(a.reflections, agents.ReflectionRecord{Trial: t + 1, Text: fb, Tokens: tokens + tokensRefine,
			PlanChanged: !sameObjects(next.RelevantObjects, cur.RelevantObjects)})
		stable := sameObjects(next.RelevantObjects, cur.RelevantObjects)
		cur, lastErr = next, perr
		a.drafts = append(a.drafts, cur.RelevantObjects)
		if a.opts.StopWhenStable && stable && perr == nil {
			break
		}
	}
	if lastErr != nil {
		// The scored answer is the last refinement, and it was lost: the
		// answer it revised is not answered in its place.
		return s.answer(ctx, cur, fmt.Errorf("last refinement: %w", lastErr))
	}
	if err := s.answer(ctx, cur, nil); err != nil {
		return err
	}
	if len(unread) > 0 {
		// The answer stands; the record still says a refinement was lost.
		return fmt.Errorf("%s: refinement replies that could not be read (the answer before each was kept): %s", a.name, strings.Join(unread, "; "))
	}
	return nil
}

// window is what a prompt shows of the rounds so far: all of them with
// memory, the last answer (and its critique, if any) without.
func (a *semmapReflector) window(answers, feedback []string) ([]string, []string) {
	if a.opts.Memory {
		return answers, feedback
	}
	last := answers[len(answers)-1:]
	if len(feedback) == len(answers) {
		return last, feedback[len(feedback)-1:]
	}
	return last, nil
}

// rounds are the earlier, finished rounds a prompt recalls: the answers
// before the last, each with its critique.
func rounds(answers, feedback []string) []semmapRound {
	var out []semmapRound
	for i := 0; i < len(answers)-1 && i < len(feedback); i++ {
		out = append(out, semmapRound{N: i + 1, Answer: answers[i], Feedback: feedback[i]})
	}
	return out
}

// reflect writes the critique of the last answer (eq. 3, or 5 with
// memory).
func (a *semmapReflector) reflect(ctx context.Context, s *semmapSession, answers, feedback []string) (string, int, error) {
	ans, fbs := a.window(answers, feedback)
	data := s.prompt(llm.CallReflect, a.opts.Examples)
	data.History = rounds(ans, fbs)
	data.Answer = ans[len(ans)-1]
	reply, err := s.generate(ctx, "reflect", a.tmpl.reflect, data, s.context(llm.CallReflect, llm.FormatText, ans, fbs), nil, 0)
	if err != nil {
		return "", 0, err
	}
	return strings.TrimSpace(reply.Text), reply.InputTokens + reply.OutputTokens, nil
}

// refine applies the last critique to the last answer (eq. 4, or 6 with
// memory).
func (a *semmapReflector) refine(ctx context.Context, s *semmapSession, answers, feedback []string) (agents.AnswerArgs, int, error, error) {
	ans, fbs := a.window(answers, feedback)
	data := s.prompt(llm.CallRefine, a.opts.Examples)
	data.History = rounds(ans, fbs)
	data.Answer, data.Feedback = ans[len(ans)-1], fbs[len(fbs)-1]
	return s.askJSON(ctx, "refine", a.tmpl.refine, data, s.context(llm.CallRefine, llm.FormatJSON, ans, fbs), nil, 0, s.attempts(a.opts.Attempts))
}
