package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results/reports"
)

// writePlots writes the report's plots, those the tracks of the records
// list that have something to show, and returns their links as the
// report should give them: relative to the report's directory, or as
// written when the report goes to stdout only. None means no plot was
// written.
//
// dir is the run directory, out and plots the --out and --plots flags.
// The plots go next to the report unless --plots says where; a report on
// stdout only writes none unless --plots asks for them.
func writePlots(rep *reports.Report, dir, out, plots string) ([]reports.PlotLink, error) {
	reportDir := dir
	if out != "" && out != "-" {
		reportDir = filepath.Dir(out)
	}
	plotDir := plots
	switch {
	case plots == "-":
		return nil, nil
	case plots == "" && out == "-":
		return nil, nil
	case plots == "":
		plotDir = reportDir
	}
	return rep.DrawPlots(func(file string, png []byte) (string, error) {
		if err := os.MkdirAll(plotDir, 0o755); err != nil {
			return "", fmt.Errorf("--plots: %w", err)
		}
		path := filepath.Join(plotDir, file)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			return "", fmt.Errorf("--plots: %w", err)
		}
		link := path
		if out != "-" {
			if rel, err := filepath.Rel(reportDir, path); err == nil {
				link = rel
			}
		}
		return filepath.ToSlash(link), nil
	})
}
