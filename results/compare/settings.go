package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// ComparedSettings are the run.json settings in which two runs may differ
// and still be compared: like the model, they change how an agent
// behaves, not which episodes it plays (dyref's and dyref-ambiguity's
// routers; the cap on a live model's reply). [Settings] lists them
// as differences and refuses none.
var ComparedSettings = []string{"max_reply_bytes", "router", "router_ambiguity"}

// SettingsError is the refusal of two runs whose settings make
// their episodes differ.
type SettingsError struct {
	Changes []results.SettingChange // Old is BASE's, New is NEW's
	Suite   bool                    // the suite versions differ (and were not allowed to)
}

func (e *SettingsError) Error() string {
	var b strings.Builder
	b.WriteString("BASE and NEW were run with settings that make their episodes differ, so they do not pair:")
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "\n  %s: %s in BASE, %s in NEW", c.Name, showSetting(c.Old), showSetting(c.New))
	}
	if e.Suite {
		b.WriteString("\nthe suite versions differ: episodes and scoring may have changed; pass --allow-suite-mismatch to compare anyway")
	}
	return b.String()
}

func showSetting(v string) string {
	if v == "" {
		return "(unset)"
	}
	return v
}

// Settings checks that two runs' settings let their episodes pair.
// Every setting must be equal but those of [ComparedSettings], which are
// returned as differences to show; the suite version may differ only with
// allowSuite (it is then returned as a difference too). The dataset's
// path ("data") may differ when both runs name the same data_hash: the
// same files in another place. Prompt templates read in place of the
// built-in ones (settings that start with results.PromptSettingPrefix) are
// differences too.
func Settings(base, new results.RunFile, allowSuite bool) (compared []results.SettingChange, err error) {
	e := &SettingsError{}
	for _, c := range base.Changes(new.Settings) {
		switch {
		case slices.Contains(ComparedSettings, c.Name) || strings.HasPrefix(c.Name, results.PromptSettingPrefix):
			compared = append(compared, c)
		case c.Name == results.SuiteSetting && allowSuite:
			compared = append(compared, c)
		case c.Name == "data" && base.Settings["data_hash"] != "" && base.Settings["data_hash"] == new.Settings["data_hash"]:
		default:
			e.Changes = append(e.Changes, c)
			if c.Name == results.SuiteSetting {
				e.Suite = true
			}
		}
	}
	if len(e.Changes) > 0 {
		return compared, e
	}
	return compared, nil
}
