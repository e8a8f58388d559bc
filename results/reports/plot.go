package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// A Plot is a figure a track's records get next to the report: a PNG
// file, and a paragraph of the report that links it. A track lists its
// plots in [Track.Plots]; a plot sees the scored records of the
// tracks that list it, and draws nothing when it has nothing to show.
type Plot struct {
	// File is the PNG's file name; two plots of one file name are one.
	File string
	// Title is the link's text.
	Title string
	// Section is the name of the report section the link goes under
	// ([Section.Name]); when the report has no such section, the link
	// goes to a section "Plots" of its own.
	Section string
	draw    func(w io.Writer, recs recList, opts Options) (caption string, ok bool, err error)
}

// NewPlot makes a plot of a track's own. draw gets the scored records of
// the tracks that list the plot; it writes the PNG to w and returns the
// sentence the report says of it (what it shows, its n), or ok false,
// having written nothing, when the records give it nothing to show.
func NewPlot(file, title, section string, draw func(w io.Writer, recs []results.Record, opts Options) (caption string, ok bool, err error)) Plot {
	return Plot{File: file, Title: title, Section: section, draw: func(w io.Writer, l recList, opts Options) (string, bool, error) {
		return draw(w, l.records(), opts)
	}}
}

// Draw writes the plot of recs (their scored records) to w as a PNG and
// returns what the report says of it; ok is false, and nothing is
// written, when there is nothing to show. The same records in any order
// give the same bytes.
func (p Plot) Draw(w io.Writer, recs []results.Record, opts Options) (caption string, ok bool, err error) {
	return p.drawList(w, listOf(results.ScoredOnly(recs)), opts)
}

func (p Plot) drawList(w io.Writer, recs recList, opts Options) (caption string, ok bool, err error) {
	var buf bytes.Buffer
	caption, ok, err = p.draw(&buf, recs, opts)
	if err != nil || !ok {
		return "", false, err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return "", false, fmt.Errorf("%s: %w", p.File, err)
	}
	return caption, true, nil
}

// PlotLink is a plot that was written, as the report links it.
type PlotLink struct {
	// Title is the link's text, Caption the sentence before it.
	Title, Caption string
	// Section is the report section the link goes under ([Plot.Section]).
	Section string
	// Link is where the report's reader finds the PNG, relative to the
	// report.
	Link string
}

// pngSignature starts every PNG: a track's own plot that ignores
// Options.SVG keeps its .png name.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// DrawPlots draws the plots of the tracks present in recs (opts.Tracks),
// each once, in the order the tracks (by name) list them, each over the
// records of the tracks that list it. save gets each plot that has
// something to show, with its PNG (its SVG, named .svg, with
// opts.SVG), and returns the link the report
// should give it. The links are what [Options.Plots] takes.
func DrawPlots(recs []results.Record, opts Options, save func(file string, png []byte) (link string, err error)) ([]PlotLink, error) {
	return drawPlots(listOf(results.ScoredOnly(recs)), opts, save)
}

// DrawPlots is [DrawPlots] of the records added to the report, with its
// options. The links are what [Report.SetPlots] takes.
func (rep *Report) DrawPlots(save func(file string, png []byte) (link string, err error)) ([]PlotLink, error) {
	return drawPlots(recList{s: rep.s, idx: rep.scored}, rep.opts, save)
}

// SetPlots sets the plots the report links ([Options.Plots]).
func (rep *Report) SetPlots(links []PlotLink) { rep.opts.Plots = links }

// SetShard says the records are those of one shard of a run
// ([Options.Shard]): a reader of a run directory learns it from run.json.
func (rep *Report) SetShard(s *results.RunShard) { rep.opts.Shard = s }

func drawPlots(recs recList, opts Options, save func(file string, png []byte) (link string, err error)) ([]PlotLink, error) {
	type placed struct {
		Plot
		tracks []string
	}
	var plots []placed
	for _, track := range distinct(recs.all(), func(r results.Record) string { return r.Track }, cmp.Compare[string]) {
		for _, p := range opts.Tracks[track].Plots {
			i := slices.IndexFunc(plots, func(q placed) bool { return q.File == p.File })
			if i < 0 {
				plots = append(plots, placed{Plot: p})
				i = len(plots) - 1
			}
			plots[i].tracks = append(plots[i].tracks, track)
		}
	}
	var links []PlotLink
	for _, p := range plots {
		var buf bytes.Buffer
		caption, ok, err := p.drawList(&buf, recs.filter(func(r results.Record) bool { return slices.Contains(p.tracks, r.Track) }), opts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", p.File, err)
		}
		if !ok {
			continue
		}
		file := p.File
		if opts.SVG && !bytes.HasPrefix(buf.Bytes(), pngSignature) {
			file = strings.TrimSuffix(file, ".png") + ".svg"
		}
		link, err := save(file, buf.Bytes())
		if err != nil {
			return nil, err
		}
		links = append(links, PlotLink{Title: p.Title, Caption: caption, Section: p.Section, Link: link})
	}
	return links, nil
}

// plotLinks writes the links of the plots that go under section.
func plotLinks(b *strings.Builder, links []PlotLink) {
	for _, l := range links {
		fmt.Fprintf(b, "%s (`%s`):\n\n![%s](%s)\n\n", l.Caption, l.Link, l.Title, l.Link)
	}
}
