package household

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// A game directory holds the grid's games as game files (see
// tasks/alfworld's WriteGame), one a file, in the layout
//
//	DIR/<perturbation>/<task type>/<index>.json
//
// so that a cell is a directory and its episodes are the files in it,
// numbered from 0. ExportGames writes the built-in split's so; run
// --track household --data DIR plays the games read from one instead of
// building them, which lets a game be edited, or written from a published
// transcript, and played by every agent.

// GameFileName is the name of episode index's file in its cell's
// directory.
func GameFileName(index int) string { return fmt.Sprintf("%02d.json", index) }

// ExportGames writes every game of the grid's cells (every task type
// under every registered household perturbation that applies to it), as
// the run builds them, to dir in the game directory layout, with the
// texts in grammar. Files already there are overwritten. It returns how
// many files it wrote.
func ExportGames(dir, grammar string) (int, error) {
	cells, err := HouseholdCells(nil, nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range cells {
		sub := filepath.Join(dir, c.Perturbation, c.Family)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return n, err
		}
		for i := range alfworld.EvalCount(c.Family) {
			g, err := HouseholdGame(c.Family, c.Perturbation, i)
			if err != nil {
				return n, err
			}
			if err := alfworld.WriteGameFile(filepath.Join(sub, GameFileName(i)), g, grammar); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// gameSet is a game directory read whole: its cells in the grid's order
// and their games by index.
type gameSet struct {
	dir   string
	cells []bench.Cell
	games map[bench.Cell][]*alfworld.Game
	hash  string // of every file read, for run.json
}

// loadGames reads a game directory. Every game must be in grammar, the
// type of its directory, and every cell's files numbered 0 to n-1; a
// file or directory that does not fit the layout is an error that names
// it. Files not ending in .json (a README) are left alone.
func loadGames(dir, grammar string) (*gameSet, error) {
	set := &gameSet{dir: dir, games: map[bench.Cell][]*alfworld.Game{}}
	perts, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sum := sha256.New()
	for _, pd := range perts {
		if !pd.IsDir() {
			continue
		}
		pdir := filepath.Join(dir, pd.Name())
		if _, ok := perturb.LookupHousehold(pd.Name()); !ok {
			return nil, fmt.Errorf("%s: want a directory named for a household perturbation (%s)", pdir, strings.Join(perturb.HouseholdNames(), ", "))
		}
		types, err := os.ReadDir(pdir)
		if err != nil {
			return nil, err
		}
		for _, td := range types {
			if !td.IsDir() {
				continue
			}
			tdir := filepath.Join(pdir, td.Name())
			if !slices.Contains(alfworld.Types(), td.Name()) {
				return nil, fmt.Errorf("%s: want a directory named for a household task type (%s)", tdir, strings.Join(alfworld.Types(), ", "))
			}
			c := bench.Cell{Family: td.Name(), Perturbation: pd.Name()}
			games, err := loadCell(tdir, c, grammar, sum)
			if err != nil {
				return nil, err
			}
			if len(games) > 0 {
				set.games[c] = games
			}
		}
	}
	// The grid's order, whatever the directory's.
	for _, t := range alfworld.Types() {
		for _, p := range perturb.HouseholdNames() {
			if c := (bench.Cell{Family: t, Perturbation: p}); set.games[c] != nil {
				set.cells = append(set.cells, c)
			}
		}
	}
	if len(set.cells) == 0 {
		return nil, fmt.Errorf("%s: no game files (want %s)", dir, filepath.Join("PERTURBATION", "TYPE", GameFileName(0)))
	}
	set.hash = hex.EncodeToString(sum.Sum(nil)[:16])
	return set, nil
}

// loadCell reads one cell's directory, adding what it reads to sum.
func loadCell(dir string, c bench.Cell, grammar string, sum io.Writer) ([]*alfworld.Game, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byIndex := map[int]*alfworld.Game{}
	label, labelKnown := cellLabel(c)
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 {
			return nil, fmt.Errorf("%s: want a file named for its episode's index from 0, as %s", path, GameFileName(0))
		}
		if _, dup := byIndex[i]; dup {
			return nil, fmt.Errorf("%s: episode %d has another file in %s", path, i, dir)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		g, gr, err := alfworld.UnmarshalGame(b, path)
		if err != nil {
			return nil, err
		}
		if gr != grammar {
			return nil, fmt.Errorf("%s: grammar: the game is written in %s, the run's --grammar is %s", path, gr, grammar)
		}
		if err := g.CheckStart(path); err != nil {
			return nil, err
		}
		if g.Type != c.Family {
			return nil, fmt.Errorf("%s: type: want %s, its directory's, got %s", path, c.Family, g.Type)
		}
		// The label is the ground truth the user's answers and the
		// scores go by; one that contradicts the perturbation of the
		// game's directory would score the game as another cell's (a
		// clear game under absence, say).
		if labelKnown && g.Label != label {
			return nil, fmt.Errorf("%s: label: want %s, as the perturbation of its directory (%s) labels its games, got %s", path, label, c.Perturbation, g.Label)
		}
		fmt.Fprintf(sum, "%q %d\n", filepath.ToSlash(filepath.Join(c.Perturbation, c.Family, e.Name())), len(b))
		sum.Write(b)
		byIndex[i] = g
	}
	games := make([]*alfworld.Game, len(byIndex))
	for i := range games {
		g, ok := byIndex[i]
		if !ok {
			return nil, fmt.Errorf("%s: no file for episode %d (want %s); the files of a cell are numbered from 0 with no gap", dir, i, GameFileName(i))
		}
		games[i] = g
	}
	return games, nil
}

// cellLabel is the label a cell's perturbation gives its games: that of
// the cell's first game as the grid builds it (a perturbation labels
// every game it perturbs alike: none "none", absence "absence", …). ok
// is false when the grid cannot build the cell's game (a perturbation
// that does not apply to the type): the directory then says nothing the
// file can contradict.
func cellLabel(c bench.Cell) (label string, ok bool) {
	g, err := HouseholdGame(c.Family, c.Perturbation, 0)
	if err != nil {
		return "", false
	}
	return g.Label, true
}

// cells are the set's cells that the filters keep; empty filters keep
// all, and a name the grid does not know is an error, as without --data.
func (s *gameSet) filter(types, perturbations []string) ([]bench.Cell, error) {
	if _, err := HouseholdCells(types, perturbations); err != nil {
		return nil, err
	}
	var out []bench.Cell
	for _, c := range s.cells {
		if (len(types) == 0 || slices.Contains(types, c.Family)) && (len(perturbations) == 0 || slices.Contains(perturbations, c.Perturbation)) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		have := make([]string, len(s.cells))
		for i, c := range s.cells {
			have[i] = c.Perturbation + "/" + c.Family
		}
		return nil, fmt.Errorf("--data %s: no game of the cells asked for (it has %s)", s.dir, strings.Join(have, ", "))
	}
	return out, nil
}

// game returns a copy of a cell's game, so that no episode shares one.
func (s *gameSet) game(c bench.Cell, index int) (*alfworld.Game, error) {
	games := s.games[c]
	if index < 0 || index >= len(games) {
		return nil, fmt.Errorf("--data %s: %s/%s has %d games; episode %d is out of range", s.dir, c.Perturbation, c.Family, len(games), index)
	}
	return games[index].Clone(), nil
}

// episodeGame is job's game: read from the game directory when the run
// has one, else built as the grid builds it.
func (t *Track) episodeGame(job bench.Job) (*alfworld.Game, error) {
	if t.data != nil {
		return t.data.game(bench.Cell{Family: job.Family, Perturbation: job.Perturbation}, job.Index)
	}
	return HouseholdGame(job.Family, job.Perturbation, job.Index)
}

// loadData reads --data, when it is given, in the run's grammar.
func (t *Track) loadData() error {
	if t.DataDir == "" {
		return nil
	}
	set, err := loadGames(t.DataDir, t.Grammar)
	if err != nil {
		return fmt.Errorf("--data: %w", err)
	}
	t.data = set
	return nil
}

// dataSettings adds to run.json's settings the game directory, by its
// path and a hash of its files, so that a run resumed on other games is
// refused.
func (t *Track) dataSettings(s map[string]string) error {
	if t.data == nil {
		return nil
	}
	abs, err := filepath.Abs(t.data.dir)
	if err != nil {
		return fmt.Errorf("--data: %w", err)
	}
	s["data"], s["data_hash"] = abs, t.data.hash
	return nil
}
