package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// playCLI runs "household ARGS" with stdin read from the file script.
func playCLI(t *testing.T, script string, args ...string) (string, error) {
	t.Helper()
	in, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = householdCmd(bytes.NewReader(in), &out, &errOut, args)
	if errOut.Len() > 0 {
		t.Logf("stderr: %s", errOut.String())
	}
	return out.String(), err
}

// A script of commands piped into household play gives a transcript: the
// opening, each command's observation and the end, the same bytes every
// time. The game is a multiplicity game exported from the grid (the egg
// meant is egg 3); the script looks around, fails a command, leaves a
// blank line, reaches the goal and has one command more, which is not
// played.
func TestHouseholdPlayGolden(t *testing.T) {
	t.Parallel()
	game := filepath.Join("testdata", "household", "heat.json")
	script := filepath.Join("testdata", "household", "heat.commands")
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"household_play.golden", []string{"play", "--echo", game}},
		{"household_play_explain.golden", []string{"play", "--echo", "--feedback", "explain", "--grammar", "v0.3", game}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, err := playCLI(t, script, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(out, "The task is done, in 10 steps.\n") {
				t.Errorf("the transcript does not end with the task done in 10 steps:\n%s", out)
			}
			golden(t, tc.golden, []byte(out))
		})
	}
	// Without --echo the transcript is the same, less the commands.
	echoed, err := playCLI(t, script, "play", "--echo", game)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := playCLI(t, script, "play", game)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.SplitAfter(echoed, "\n") {
		if !strings.HasPrefix(line, "> ") {
			want = append(want, line)
		}
	}
	if plain != strings.Join(want, "") {
		t.Errorf("without --echo:\n%s\nwant:\n%s", plain, strings.Join(want, ""))
	}
}

// play stops at the end of the input, and at the game's step limit.
func TestHouseholdPlayEnds(t *testing.T) {
	t.Parallel()
	game := filepath.Join("testdata", "household", "heat.json")
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("look\ninventory\n"), 0o644)
	out, err := playCLI(t, short, "play", game)
	if err != nil || !strings.HasSuffix(out, "The input ended after 2 steps; the task is not done.\n") {
		t.Errorf("short script: %v\n%s", err, out)
	}
	long := filepath.Join(dir, "long")
	os.WriteFile(long, []byte(strings.Repeat("look\n", 60)), 0o644)
	out, err = playCLI(t, long, "play", game)
	if err != nil || !strings.HasSuffix(out, "\n\nThe step limit of 50 is reached; the task is not done.\n") {
		t.Errorf("long script: %v\n%s", err, out)
	}
}

// play and export refuse what they cannot do, and say which file, field
// or flag is wrong.
func TestHouseholdCommandErrors(t *testing.T) {
	t.Parallel()
	game := filepath.Join("testdata", "household", "heat.json")
	bad := filepath.Join(t.TempDir(), "bad.json")
	b, _ := os.ReadFile(game)
	os.WriteFile(bad, bytes.Replace(b, []byte(`"loc":`), []byte(`"loc":-`), 1), 0o644)
	midway := filepath.Join(t.TempDir(), "midway.json")
	os.WriteFile(midway, bytes.Replace(b, []byte(`"agent": {"at":""`), []byte(`"agent": {"at":"fridge 1"`), 1), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--grammar", "v0.4", game}, "household play: " + game + ": grammar: the game is written in v0.3, --grammar is v0.4"},
		{[]string{"play", "--grammar", "v1", game}, `household play: --grammar "v1": want v0.3 or v0.4`},
		{[]string{"play", "--feedback", "loud", game}, `household play: testdata/household/heat.json: household: unknown feedback "loud"`},
		{[]string{"play", bad}, "household play: " + bad + ": receptacles[0].loc: want a number from 1, got -"},
		{[]string{"play", midway}, "household play: " + midway + ": agent: a game starts in the middle of the room with nothing in hand"},
		{[]string{"play"}, "household play: want one FILE, got 0 arguments"},
		{[]string{"export", "--echo", t.TempDir()}, "household export: --feedback and --echo are play's"},
		{[]string{"import", "x"}, `household: unknown subcommand "import"`},
	} {
		_, err := playCLI(t, os.DevNull, tc.args...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %s…", tc.args, err, tc.want)
		}
	}
	out, _, err := runCLI(t, "household", "--help")
	if err != nil || !strings.Contains(out, "Usage:\n  ambibench household export") || !strings.Contains(out, "-feedback") {
		t.Errorf("household --help: %v\n%s", err, out)
	}
}

// The grid's games exported and read back by run --data give the same
// records as the games built afresh, for agents that read the ground
// truth (oracle), the text (rules) and a model (react on sim). Only the
// timings differ; run.json names the directory.
func TestHouseholdExportThenRunData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	games := filepath.Join(dir, "games")
	out, _, err := runCLI(t, "household", "export", games)
	if err != nil || out != "wrote "+games+": 653 games, grammar v0.3\n" {
		t.Fatalf("export: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(games, "multiplicity", "pick_two_obj_and_place")); !os.IsNotExist(err) {
		t.Errorf("multiplicity does not apply to pick_two_obj_and_place, but its directory is there (%v)", err)
	}
	// Three types (one with a lamp, one with two objects) under every
	// perturbation, the first games of each: enough to meet every field.
	args := []string{"run", "--track", "household", "--agents", "oracle,rules,react", "--quiet", "--episodes", "8",
		"--tasks", "pick_and_place,look_at_obj_in_light,pick_two_obj_and_place"}
	built, read := filepath.Join(dir, "built"), filepath.Join(dir, "read")
	if _, errOut, err := runCLI(t, append(args, "--out", built)...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if _, errOut, err := runCLI(t, append(args, "--out", read, "--data", games)...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	a, b := readRecords(t, built), readRecords(t, read)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d records built, %d read", len(a), len(b))
	}
	for i := range a {
		a[i].WallMS, b[i].WallMS = 0, 0
		a[i].LatencyP50MS, b[i].LatencyP50MS = 0, 0
		a[i].LatencyP95MS, b[i].LatencyP95MS = 0, 0
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("record %d differs:\nbuilt %+v\nread  %+v", i, a[i], b[i])
		}
	}
	runJSON, err := os.ReadFile(filepath.Join(read, "run.json"))
	if err != nil || !bytes.Contains(runJSON, []byte(`"data_hash"`)) {
		t.Errorf("run.json does not name the games' directory: %v\n%s", err, runJSON)
	}

	// Only the cells whose directories are there are played, filtered as
	// usual; a perturbation named that has no directory is refused, not
	// dropped from the table unseen (issue 33); a game in another grammar
	// is refused by its file's name.
	os.RemoveAll(filepath.Join(games, "absence"))
	out, errOut, err := runCLI(t, "run", "--track", "household", "--agents", "oracle", "--data", games, "--tasks", "pick_and_place", "--perturbations", "none,multiplicity")
	if err != nil || strings.Contains(out, "absence") || !strings.Contains(out, "| none | multiplicity |") {
		t.Errorf("run without the absence directory: %v\n%s%s", err, out, errOut)
	}
	_, _, err = runCLI(t, "run", "--track", "household", "--agents", "oracle", "--data", games, "--tasks", "pick_and_place", "--perturbations", "none,absence,multiplicity")
	if want := "run: --perturbations absence: --data " + games + ": no game of the cells asked for (it has none/pick_and_place, multiplicity/pick_and_place, "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("absence named without its directory: %v, want %s…", err, want)
	}
	_, _, err = runCLI(t, "run", "--track", "household", "--grammar", "v0.4", "--data", games)
	want := "run: --data: " + filepath.Join(games, "multiplicity", "look_at_obj_in_light", "00.json") + ": grammar: the game is written in v0.3, the run's --grammar is v0.4"
	if err == nil || err.Error() != want {
		t.Errorf("--grammar v0.4 on v0.3 games: %v, want %s", err, want)
	}
	stray := filepath.Join(games, "none", "pick_and_place", "x.json")
	os.WriteFile(stray, []byte("{}"), 0o644)
	_, _, err = runCLI(t, "run", "--track", "household", "--data", games)
	if err == nil || !strings.Contains(err.Error(), stray+": want a file named for its episode's index from 0, as 00.json") {
		t.Errorf("a stray file: %v", err)
	}
}
