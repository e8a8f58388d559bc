//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// lockDir takes the run directory's lock, so that two runs never append
// to one records.jsonl at once. Without flock the lock is a file created
// exclusively and removed at the end; a run killed hard leaves it behind,
// and the error says so.
func lockDir(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s is in use by another ambibench run; wait for it to end, or use another --out (if no run is going on, one was killed: delete %s)", dir, path)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	f.Close()
	return func() { os.Remove(path) }, nil
}
