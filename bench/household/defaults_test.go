package household

import (
	"flag"
	"testing"
)

// The track's defaults are the Reflexion authors' protocol: ten trials
// (run_reflexion.sh, line 2, --num_trials 10), kept settable by --trials,
// and the arrival cut unless --keep-arrival (alfworld_trial.py, lines
// 41-44), which run.json names only when set.
func TestHouseholdDefaults(t *testing.T) {
	t.Parallel()
	tr := New()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	tr.Flags(fs)
	if DefaultTrials != 10 || tr.Trials != 10 || fs.Lookup("trials").DefValue != "10" {
		t.Errorf("trials: default %d, track %d, flag %q; want the authors' 10", DefaultTrials, tr.Trials, fs.Lookup("trials").DefValue)
	}
	if err := fs.Parse([]string{"--trials", "4", "--keep-arrival"}); err != nil {
		t.Fatal(err)
	}
	s, err := tr.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Trials != 4 || !tr.KeepArrival || s["trials"] != "4" || s["arrival"] != "kept" {
		t.Errorf("after --trials 4 --keep-arrival: trials %d, keep %v, settings %v", tr.Trials, tr.KeepArrival, s)
	}
	d, err := New().Settings()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d["arrival"]; ok {
		t.Errorf("default settings %v name the arrival; runs from before the flag would no longer match", d)
	}
}
