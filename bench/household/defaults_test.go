package household

import (
	"flag"
	"testing"
)

// The track's defaults are the Reflexion authors' protocol: ten trials
// (run_reflexion.sh, line 2, --num_trials 10), kept settable by --trials,
// the arrival cut unless --keep-arrival (alfworld_trial.py, lines 41-44),
// prompts without ambibench's rules of the house unless --hints, and a
// trial that ends on a repeated call unless --play-on-repeat; run.json
// names each of the last three only when set.
func TestHouseholdDefaults(t *testing.T) {
	t.Parallel()
	tr := New()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	tr.Flags(fs)
	if DefaultTrials != 10 || tr.Trials != 10 || fs.Lookup("trials").DefValue != "10" {
		t.Errorf("trials: default %d, track %d, flag %q; want the authors' 10", DefaultTrials, tr.Trials, fs.Lookup("trials").DefValue)
	}
	for _, name := range []string{"keep-arrival", "hints", "play-on-repeat"} {
		if f := fs.Lookup(name); f == nil || f.DefValue != "false" {
			t.Errorf("--%s: %+v; want a flag, off by default", name, f)
		}
	}
	if err := fs.Parse([]string{"--trials", "4", "--keep-arrival", "--hints", "--play-on-repeat"}); err != nil {
		t.Fatal(err)
	}
	s, err := tr.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Trials != 4 || !tr.KeepArrival || !tr.Hints || !tr.PlayOnRepeat || s["trials"] != "4" || s["arrival"] != "kept" ||
		s["hints"] != "house rules" || s["repeat"] != "play on" {
		t.Errorf("after --trials 4 --keep-arrival --hints --play-on-repeat: trials %d, keep %v, hints %v, play on %v, settings %v",
			tr.Trials, tr.KeepArrival, tr.Hints, tr.PlayOnRepeat, s)
	}
	d, err := New().Settings()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"arrival", "hints", "repeat"} {
		if _, ok := d[k]; ok {
			t.Errorf("default settings %v name %q; runs from before the flag would no longer match", d, k)
		}
	}
}
