package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/imagefile"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes/camera"
)

const showUsage = `Usage: ambibench show [--images OUT] DIR KEY

Prints one episode of the run in DIR: its instruction, its outcome and
scores, and, when the run kept transcripts (run --transcripts), every model
call with the tool results the model was shown and the reply it gave.

KEY names the episode as a record's key does, with or without its quotes:
  tabletop/pick_place/absence/direct/sim/1/7
  "tabletop"/"pick_place"/"absence"/"direct"/"sim"/1/7
(track, task family, perturbation, agent, model, seed, episode index, and
/n=SIZE for a scene size). Run "ambibench show DIR" for the keys in DIR.

With --images OUT, a tabletop episode's opening table is written to the
directory OUT as each robot's camera saw it (ambibench render's images:
KEY's cell, seed and index fix the table), one PNG a robot; and when the
run kept transcripts, every image its calls showed the model, as kept
under DIR/images.
`

// showCmd prints one recorded episode and its model calls.
func showCmd(stdout, stderr io.Writer, args []string) error {
	flags := flag.NewFlagSet("ambibench show", flag.ContinueOnError)
	images := flags.String("images", "", "")
	flags.Usage = func() { fmt.Fprint(flags.Output(), showUsage) }
	if done, err := parseFlags(flags, stdout, stderr, func() error { return flags.Parse(args) }); done {
		return err
	}
	if flags.NArg() < 1 || flags.NArg() > 2 {
		flags.Usage()
		return errUsage
	}
	dir := flags.Arg(0)
	path := filepath.Join(dir, recordsFileName)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	// Of an episode recorded twice, show would print one and hide the
	// other: refused, naming the line, as report and compare do.
	recs, err := results.ReadRecordsFunc(f, path, results.OnceEach())
	f.Close()
	if err != nil && !errors.Is(err, results.ErrTruncated) {
		return fmt.Errorf("show: %w", err)
	}
	if flags.NArg() == 1 {
		for _, r := range recs {
			fmt.Fprintf(stdout, "%s\t%s\n", r.PlainKey(), r.Outcome)
		}
		return nil
	}
	want := flags.Arg(1)
	i := slices.IndexFunc(recs, func(r results.Record) bool { return r.Key() == want || r.PlainKey() == want })
	if i < 0 {
		return fmt.Errorf("show: %s holds no episode %s (run \"ambibench show %s\" for the keys)", path, want, dir)
	}
	r := recs[i]
	var b strings.Builder
	writeEpisode(&b, r)
	if *images != "" {
		if err := writeEpisodeImages(&b, *images, r); err != nil {
			return fmt.Errorf("show: --images: %w", err)
		}
	}
	calls, err := transcriptOf(filepath.Join(dir, "transcripts.jsonl"), r.Key())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.WriteString("\nNo transcripts.jsonl in the directory: run with --transcripts to keep every model call.\n")
	case err != nil:
		return fmt.Errorf("show: %w", err)
	case len(calls) == 0 && r.Model != "":
		b.WriteString("\nThe transcripts hold no call of this episode.\n")
	default:
		writeCalls(&b, calls)
		if *images != "" {
			if err := writeShownImages(&b, dir, *images, calls); err != nil {
				return fmt.Errorf("show: --images: %w", err)
			}
		}
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

func writeEpisode(b *strings.Builder, r results.Record) {
	fmt.Fprintf(b, "Episode %s (suite %d)\n", r.Key(), r.Suite)
	fmt.Fprintf(b, "Instruction: %s\n", r.Instruction)
	if r.Label != "" {
		fmt.Fprintf(b, "Ground truth: %s\n", r.Label)
	}
	fmt.Fprintf(b, "Outcome: %s", r.Outcome)
	if r.ErrorKind != "" {
		fmt.Fprintf(b, " (%s)", r.ErrorKind)
	}
	if r.Error != "" {
		fmt.Fprintf(b, ": %s", r.Error)
	}
	b.WriteString("\n")
	if r.Query != "" { // an answer to a query: ranked ids, scored by Top-k
		fmt.Fprintf(b, "Answer: %v; truth: %v; Top-1 %v, Top-Any %v\n", r.Answer, r.Truth, r.Top1, r.TopAny)
	} else {
		fmt.Fprintf(b, "SR %v, ADA %v; questions %d (tag of the first: %q, %d matched); steps %d\n", r.Success, r.ADA, r.Questions, r.Tag, r.TagCorrect, r.Steps)
	}
	if r.Trials > 0 {
		fmt.Fprintf(b, "Trials %d, solved at trial %d; reflections %d (%d redundant)\n", r.Trials, r.SolvedTrial, r.Reflections, r.RedundantReflections)
	}
	for _, m := range r.Messages {
		fmt.Fprintf(b, "%s → %s: %s\n  reply: %s\n", m.From, m.To, m.Text, m.Reply)
	}
	if r.Model != "" {
		fmt.Fprintf(b, "Model %s: %d calls, %d input and %d output tokens\n", r.Model, r.Calls, r.InputTokens, r.OutputTokens)
	}
}

// transcriptOf reads the transcript lines of one episode, in order.
func transcriptOf(path, key string) ([]middleware.TranscriptEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []middleware.TranscriptEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var e middleware.TranscriptEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if e.Episode == key {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// writeCalls prints the calls of an episode. A workflow resends its
// conversation on every call, so each call shows only the messages the
// previous one did not have.
func writeCalls(b *strings.Builder, calls []middleware.TranscriptEntry) {
	var prev []llm.Message
	prevSystem := ""
	for i, c := range calls {
		fmt.Fprintf(b, "\n=== call %d (%s; %d input, %d output tokens)\n", i+1, c.Model, c.InputTokens, c.OutputTokens)
		msgs := c.Request.Messages
		if c.Request.System == prevSystem && isPrefix(prev, msgs) {
			msgs = msgs[len(prev):]
		} else if c.Request.System != "" {
			fmt.Fprintf(b, "[system]\n%s\n", c.Request.System)
		}
		for _, m := range msgs {
			writeMessage(b, m)
		}
		switch {
		case c.Error != "":
			fmt.Fprintf(b, "[error] %s\n", c.Error)
		case c.Reply != nil:
			writeMessage(b, llm.Message{Role: llm.RoleAssistant, Text: c.Reply.Text, ToolCalls: c.Reply.ToolCalls})
		}
		prev, prevSystem = c.Request.Messages, c.Request.System
		if c.Reply != nil {
			prev = append(slices.Clone(prev), llm.Message{Role: llm.RoleAssistant, Text: c.Reply.Text, ToolCalls: c.Reply.ToolCalls})
		}
	}
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

func writeMessage(b *strings.Builder, m llm.Message) {
	switch m.Role {
	case llm.RoleTool:
		fmt.Fprintf(b, "[tool %s]\n%s\n", m.Name, m.Text)
		return
	}
	if m.Text != "" {
		fmt.Fprintf(b, "[%s]\n%s\n", m.Role, m.Text)
	}
	for _, tc := range m.ToolCalls {
		fmt.Fprintf(b, "[%s calls %s] %s\n", m.Role, tc.Name, tc.Args)
	}
	for _, im := range m.Images {
		fmt.Fprintf(b, "[%s shows an image] %s, %d×%d, %s\n", m.Role, im.MIME, im.Width, im.Height, im.Digest)
	}
}

// writeShownImages copies the images an episode's calls showed the model
// from the run directory (where the transcripts keep them) to out, one
// file each, and says where in b.
func writeShownImages(b *strings.Builder, runDir, out string, calls []middleware.TranscriptEntry) error {
	seen := map[string]bool{}
	for i, c := range calls {
		for _, m := range c.Request.Messages {
			for _, im := range m.Images {
				if seen[im.Digest] {
					continue
				}
				seen[im.Digest] = true
				stored, err := imagefile.Open(runDir, im)
				if err != nil {
					return err
				}
				data, err := stored.Bytes()
				if err != nil {
					return err
				}
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				path := filepath.Join(out, fmt.Sprintf("call%d-%.12s%s", i+1, im.Digest, im.Ext()))
				if err := os.WriteFile(path, data, 0o644); err != nil {
					return err
				}
				fmt.Fprintf(b, "Image shown at call %d: %s\n", i+1, path)
			}
		}
	}
	return nil
}

// writeEpisodeImages writes the robots' camera images of r's opening table
// to dir and says where in b.
func writeEpisodeImages(b *strings.Builder, dir string, r results.Record) error {
	if r.Track != tabletop.Name {
		return fmt.Errorf("%s is an episode of the %s track, which has no camera (only the tabletop's has)", r.PlainKey(), r.Track)
	}
	views, err := tabletop.Views(nil, r.Seed, r.Family, r.Perturbation, r.Episode, r.SceneSize, camera.DefaultOptions())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := fmt.Sprintf("%s-%s-e%d", r.Family, r.Perturbation, r.Episode)
	if r.SceneSize != 0 {
		name += fmt.Sprintf("-n%d", r.SceneSize)
	}
	for _, v := range views {
		path := filepath.Join(dir, name+"-"+v.Robot+".png")
		if err := os.WriteFile(path, v.PNG, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(b, "%s's camera at the start: %s (digest %.12s)\n", v.Robot, path, v.Digest)
	}
	return nil
}
