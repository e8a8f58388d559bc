package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ambibench/ambibench/agents/prompt"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

const promptsUsage = `Usage: ambibench prompts export DIR

Writes every prompt template of every workflow to DIR, a directory per
workflow package: DIR/tabletop/NAME.tmpl, DIR/household/NAME.tmpl and
DIR/semmap/NAME.tmpl, each file the built-in text. DIR must be new or
empty, so that no edited template is overwritten.

Edit the templates to change (Go text/template; a template is given the
data its workflow renders it with), then run with them in place of the
built-in ones:

  ambibench run --prompts DIR ...

run reads any subset of DIR's files (a file left as exported changes
nothing) and refuses, before the run, a file for no workflow or
template, and a template that does not parse or names a field its
workflow does not give, with its file and line. The SHA-256 of each
template that differs from the built-in one is a setting in run.json
("prompt:tabletop/direct_system.tmpl"), so a run with other prompts is
never resumed into one without.
`

// promptsCmd serves the workflows' prompt templates: "export DIR" writes
// them, to be edited and read back by run --prompts DIR.
func promptsCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench prompts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), promptsUsage) }
	if done, err := subcommand(fs, stdout, "prompts", args, "export"); done {
		return err
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args[1:]) }); done {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("prompts export: want one DIR, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	n, err := prompt.Export(dir)
	if err != nil {
		return fmt.Errorf("prompts export: %w", err)
	}
	var parts []string
	for _, s := range prompt.Sets() {
		parts = append(parts, fmt.Sprintf("%s %d", s.Name(), len(s.Files())))
	}
	fmt.Fprintf(stdout, "wrote %s: %d templates (%s); edit some and pass the directory to ambibench run --prompts\n", dir, n, strings.Join(parts, ", "))
	return nil
}

// loadPrompts reads run --prompts DIR for a run of track: the templates
// it replaces, checked. A directory that replaces none of the track's
// templates is refused, as a flag that changes nothing is; replaced
// templates of other tracks are noted on stderr, and the run's own are
// listed.
func loadPrompts(stderr io.Writer, dir, track string, usesModel bool) (*prompt.Overrides, error) {
	if dir == "" {
		return nil, fmt.Errorf("run: --prompts: want a directory of templates (ambibench prompts export DIR writes one)")
	}
	o, err := prompt.Load(dir)
	if err != nil {
		var msg strings.Builder
		fmt.Fprintf(&msg, "run: --prompts %s: refused before the run:", dir)
		for _, line := range strings.Split(err.Error(), "\n") {
			msg.WriteString("\n  " + line)
		}
		return nil, errors.New(msg.String())
	}
	var own, other []string
	for _, r := range o.Replaced() {
		if bench.ReadsPromptSet(track, r.Set) {
			own = append(own, r.Set+"/"+r.File)
		} else {
			other = append(other, r.Set+"/"+r.File)
		}
	}
	if len(own) == 0 {
		also := ""
		if len(other) > 0 {
			also = fmt.Sprintf(" (it replaces %s, which the %s track does not read)", strings.Join(other, ", "), track)
		}
		return nil, fmt.Errorf("run: --prompts %s: no template of the %s workflows there differs from the built-in one%s; edit the ones to change in %s, or leave the flag out",
			dir, track, also, dir+"/"+track)
	}
	if !usesModel {
		fmt.Fprintf(stderr, "ambibench: warning: --prompts %s: no agent of this run uses a model, so no template is read\n", dir)
	}
	fmt.Fprintf(stderr, "ambibench: --prompts %s: %d %s in place of the built-in: %s\n", dir, len(own), plural(len(own), "template", "templates"), strings.Join(own, ", "))
	if len(other) > 0 {
		fmt.Fprintf(stderr, "ambibench: note: --prompts %s: the %s track does not read %s\n", dir, track, strings.Join(other, ", "))
	}
	return o, nil
}

// promptsNote is summary.md's line on the templates the run read in
// place of the built-in ones, "" for none.
func promptsNote(o *prompt.Overrides, track string) string {
	var parts []string
	for _, r := range o.Replaced() {
		if bench.ReadsPromptSet(track, r.Set) {
			parts = append(parts, fmt.Sprintf("`%s/%s` (SHA-256 %s…)", r.Set, r.File, r.SHA256[:12]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("Prompt templates in place of the built-in ones (run --prompts %s): %s.\n\n", o.Dir(), strings.Join(parts, ", "))
}

// promptsHint adds to a refusal of changed settings what the prompt
// settings are, when some are among them.
func promptsHint(err error) error {
	var se *results.SettingsError
	if !errors.As(err, &se) {
		return err
	}
	for _, c := range se.Changes {
		if strings.HasPrefix(c.Name, prompt.SettingPrefix) {
			return fmt.Errorf("%w\n(%s settings are the SHA-256 of the templates run --prompts DIR read in place of the built-in ones: pass the same templates to add to the directory)", err, prompt.SettingPrefix+"…")
		}
	}
	return err
}
