package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
)

// parseFlags runs parse, which parses fs, and settles what it printed:
// the usage that -h or --help asked for goes to stdout, as the top-level
// help does, and ends the command without an error (exit 0); a bad flag's
// message and the usage go to stderr, and the command ends with
// errUsage. done is false when the command should go on.
func parseFlags(fs *flag.FlagSet, stdout, stderr io.Writer, parse func() error) (done bool, err error) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err = parse()
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		_, werr := stdout.Write(buf.Bytes())
		return true, werr
	case err != nil:
		// The usage error is what the command reports; a failed write to
		// stderr would have nowhere to be reported.
		_, _ = stderr.Write(buf.Bytes())
		return true, errUsage
	}
	return false, nil
}
