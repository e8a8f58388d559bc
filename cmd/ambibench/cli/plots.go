package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results"
)

// writePlots writes the report's plots, for the records that have any,
// and returns the path of the map-size plot as the report should link it:
// relative to the report's directory, or as written when the report goes
// to stdout only. "" means no plot was written.
//
// dir is the run directory, out and plots the --out and --plots flags.
// The plots go next to the report unless --plots says where; a report on
// stdout only writes none unless --plots asks for them.
func writePlots(recs []results.Record, opts results.ReportOptions, dir, out, plots string) (string, error) {
	reportDir := dir
	if out != "" && out != "-" {
		reportDir = filepath.Dir(out)
	}
	plotDir := plots
	switch {
	case plots == "-":
		return "", nil
	case plots == "" && out == "-":
		return "", nil
	case plots == "":
		plotDir = reportDir
	}
	var buf bytes.Buffer
	ok, err := results.MapSizePlot(&buf, recs, opts)
	if err != nil || !ok {
		return "", err
	}
	if err := os.MkdirAll(plotDir, 0o755); err != nil {
		return "", fmt.Errorf("--plots: %w", err)
	}
	path := filepath.Join(plotDir, results.MapSizePlotFile)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("--plots: %w", err)
	}
	link := path
	if out != "-" {
		if rel, err := filepath.Rel(reportDir, path); err == nil {
			link = rel
		}
	}
	return filepath.ToSlash(link), nil
}
