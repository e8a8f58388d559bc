package cli

import (
	"path/filepath"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// A clara run recorded into a cassette replays whole, record for record,
// and both are the run of the model itself. CLARA fits its threshold on
// the calibration split, played in the first episode that asks: every
// table of the split used to be drawn under one camera image digest, so
// that its detection calls were one request, which a recording served
// from the first table recorded to the others, and a replay missed the
// calls that calibration workers running at once recorded of their own
// tables (the replay ended in infrastructure errors, and the recorded
// run's threshold was not the plain run's).
func TestCassetteReplaysClaraCalibration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tapes := filepath.Join(dir, "tapes")
	grid := []string{"--agents", "clara", "--tasks", "pick_place", "--perturbations", "none,absence",
		"--episodes", "1", "--concurrency", "4", "--quiet"}
	run := func(name, model string) []results.Record {
		t.Helper()
		out := filepath.Join(dir, name)
		_, errOut, err := runCLI(t, append([]string{"run", "--model", model, "--out", out}, grid...)...)
		if err != nil {
			t.Errorf("%s run (--model %s): %v\n%s", name, model, err, errOut)
		}
		recs := readRecords(t, out)
		if len(recs) != 2 {
			t.Fatalf("%s run: %d records, want 2", name, len(recs))
		}
		for _, r := range recs {
			if !r.Scored() {
				t.Errorf("%s run: %s is an infrastructure error: %s", name, r.Key(), r.Error)
			}
		}
		return recs
	}
	plain := canonical(t, run("plain", "sim"))
	recorded := canonical(t, run("record", "record:"+tapes+"=sim"))
	replayed := canonical(t, run("replay", "replay:"+tapes))
	if recorded != plain {
		t.Errorf("the recorded run's records are not the plain run's:\nrecorded:\n%s\nplain:\n%s", recorded, plain)
	}
	if replayed != recorded {
		t.Errorf("the replay's records are not the recorded run's:\nreplayed:\n%s\nrecorded:\n%s", replayed, recorded)
	}
}
