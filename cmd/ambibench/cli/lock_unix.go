//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockDir takes the run directory's lock, so that two runs never append
// to one records.jsonl at once. The lock is an flock on DIR/.lock: the
// system drops it when the process ends, however it ends, so a killed run
// leaves no stale lock behind.
func lockDir(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		data := make([]byte, 32)
		n, _ := f.ReadAt(data, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := "another ambibench run"
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(data[:n]))); perr == nil {
				who += fmt.Sprintf(" (pid %d)", pid)
			}
			return nil, fmt.Errorf("%s is in use by %s; wait for it to end, or use another --out", dir, who)
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
