package bench

import (
	"context"
	"errors"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/results"
)

// SuiteVersion is the version of what the suite measures: the episodes it
// generates and the way it scores them. Raise it with any change that can
// move a record's score (a new perturbation wording, a fixed scorer, a
// changed world); every record, summary and report carries it, so that
// numbers of two versions are never compared by accident. A change that
// only adds to the grid (a new agent, task family or perturbation) leaves
// the existing episodes as they were and needs no raise.
//
// Version 2: every tabletop workflow that perceives sees the camera image
// by default (--perception image), and the renderer draws what rests in a
// bowl after the bowl.
//
// Version 3: the household and semmap workflows as their authors ran them
// by default (no house rules, a trial ends on a repeated action, the text
// shape of the reference; semmap's examples shared with no query, no
// temperature sent, an unreadable answer asked again up to 10 times).
//
// Version 4: the tabletop as its authors ran it (issue 32): the two-robot
// prompts no longer order asking the other robot before telling the
// person something is absent (--ask-robot-first restores it), and CLARA
// estimates its uncertainty as its code does (5 prompts × 3 samples, the
// spread of the pick and place phrases). The tabletop's records moved:
// the prompts' text is part of what the simulated model's draws are keyed
// on, and the version names the camera images.
//
// Version 5: what an episode costs (issue 37): the simulated model seeds
// a call's draws from a fixed amount of the call (the situation, the
// context's labels and list lengths, the message and tool counts, the
// last message's ends) instead of a hash of the whole request, and counts
// a context's bytes without marshalling it. The simulated mistakes fall
// on other calls, so records of every track moved; no world, wording or
// scorer changed.
//
// Version 6: what a crowded table costs (issue 37, its last pass): the
// distractors of a scene size are drawn from the part of the table their
// class's clearance leaves free rather than from the whole table
// (scenes.Layout.AddSpacedOff), each spot as likely as before but reached
// by other draws, so the tables of every size above a family's own moved;
// the tables at a family's own size did not, and nothing else changed but
// the version, which names the camera images that the simulated model's
// draws are keyed on: records of every tabletop run moved with it.
const SuiteVersion = 6

// infraKind says whether err is a failure of the provider, the network or
// a cassette rather than of the agent, and names its kind for reports.
// Every error a model's Generate returns is one, but for a refusal that is
// the model's own limit (which the agent must live with).
//
// Only errors that hold an *llm.Error count, or a call's own deadline: an
// error the workflow made itself (a reply it could not read) is the
// agent's, and a cancelled run never reaches here (playAgent stops it).
func infraKind(err error) (string, bool) {
	var miss *cassette.MissError
	var le *llm.Error
	switch {
	case !llm.IsInfra(err):
		return "", false
	case errors.As(err, &miss):
		return "cassette miss", true
	case errors.As(err, &le):
		return le.Kind.String(), true
	case errors.Is(err, context.DeadlineExceeded):
		return llm.KindTimeout.String(), true
	}
	return "", false
}

// agentKind names the kind of an agent's own failure, when it came from
// the model (a refusal, a reply too large to read), and "" otherwise.
func agentKind(err error) string {
	var le *llm.Error
	if errors.As(err, &le) {
		return le.Kind.String()
	}
	return ""
}

// finishRecord finishes a scored record: it stamps the suite version,
// copies the episode's model usage, and sorts the episode into one of
// the three outcomes. A model call that failed for the infrastructure
// makes the whole episode an infra error, even when the workflow carried
// on after it: what followed was not the agent meeting the task. runErr is
// the agent's own error, if it returned one; rec.Error already holds what
// the episode's scorer made of it.
func finishRecord(rec *results.Record, runErr error, tally *llm.Tally) {
	rec.Suite = SuiteVersion
	u := tally.Usage()
	rec.Calls, rec.Attempts, rec.InputTokens, rec.OutputTokens = u.Calls, u.Attempts, u.InputTokens, u.OutputTokens
	rec.LatencyP50MS = float64(u.LatencyP50.Microseconds()) / 1000
	rec.LatencyP95MS = float64(u.LatencyP95.Microseconds()) / 1000
	failures := tally.Failures()
	for _, err := range append(failures, runErr) {
		if kind, ok := infraKind(err); ok {
			rec.Outcome, rec.ErrorKind, rec.Error = results.OutcomeInfraError, kind, err.Error()
			return
		}
	}
	if rec.Error == "" {
		rec.Outcome = results.OutcomeScored
		return
	}
	rec.Outcome = results.OutcomeAgentError
	for _, err := range append(failures, runErr) {
		if k := agentKind(err); k != "" {
			rec.ErrorKind = k
			break
		}
	}
}
