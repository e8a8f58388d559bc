package reports

import (
	"io"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// A Section is one part of a report. A track says which sections its
// records get, in which order ([Track]); a section sees the records
// of the tracks that asked for it, and writes nothing when it has nothing
// to show.
type Section struct {
	name  string
	cut   string // the cut the section shows (TrialCut), "" for none
	write func(rp *reporter, b *strings.Builder)
}

// Name names the section; two sections of one name are one.
func (s Section) Name() string { return s.name }

// The sections the report has built in.
var (
	// SectionRates: ADA and SR by agent and ambiguity type, and the
	// tags' accuracy.
	SectionRates = Section{name: "rates", write: (*reporter).rates}
	// SectionCost: model calls, tokens, latency and wall time per
	// episode.
	SectionCost = Section{name: "cost", write: (*reporter).costTable}
	// SectionSingleRobot: paper 001's Table 2: ADA and SR by ambiguity
	// category over the single-robot families, without the noise
	// perturbations, at the paper's episodes per category
	// (Options.CategoryEpisodes).
	SectionSingleRobot = Section{name: "single_robot", write: (*reporter).singleRobotTable}
	// SectionPartialObservability: the two-robot case (paper 001's
	// Table 4), by what is out of view and by family.
	SectionPartialObservability = Section{name: "partial_observability", write: (*reporter).partialTable}
	// SectionRobustness: ADA and SR under the noise perturbations
	// (Track.Noise) beside the clear episodes.
	SectionRobustness = Section{name: "robustness", write: (*reporter).robustnessTable}
	// SectionSceneSize: the series over scene sizes.
	SectionSceneSize = Section{name: "scene_size", write: (*reporter).sceneSizeTable}
	// SectionTrials: success by trial and the solving trajectories.
	SectionTrials = Section{name: "trials", write: (*reporter).trialTable}
	// SectionReflections: how much each agent reflected, with which
	// tools, at what cost and to what effect.
	SectionReflections = Section{name: "reflections", write: (*reporter).reflectionTable}
	// SectionTopK: Top-1, 2, 3 and Any by agent, input mode and query
	// type.
	SectionTopK = Section{name: "top_k", write: (*reporter).topKTable}
	// SectionMapSize: Top-k against the map's size.
	SectionMapSize = Section{name: "map_size", write: (*reporter).mapSizeTable}
)

// NewSection makes a section of a track's own: write gets the scored
// records of the tracks that list the section, sorted by key, as the
// report keeps them: without the instruction, the robots' messages' text
// (their number is kept) and acted_by.
func NewSection(name string, write func(w io.Writer, recs []results.Record) error) Section {
	return Section{name: name, write: func(rp *reporter, b *strings.Builder) {
		var recs []results.Record
		for _, u := range rp.units {
			recs = append(recs, u.recs.records()...)
		}
		if len(recs) == 0 {
			return
		}
		if err := write(b, recs); err != nil && rp.err == nil {
			rp.err = err
		}
	}}
}

// Track is what a track's records get in a report: the track's
// contribution to it. A track declares its own (bench.Track's Report
// method) and the report reads it by the track's name ([Options.Tracks]),
// so that what is a track's, its baseline agent, its ablation group, its
// published cuts, its words, stays in the track's package.
type Track struct {
	// Sections, in order, after the overview and before the paired
	// comparisons; empty means SectionRates and SectionCost.
	Sections []Section
	// Baseline is the agent the track's workflows are compared with by
	// default; empty means none: no paired comparisons unless the
	// report names a baseline (Options.Baseline) or asks for all
	// pairs.
	Baseline string
	// SuccessByTrial labels success in the paired comparisons SR@k, k
	// the most trials any of the track's records played.
	SuccessByTrial bool
	// Plots are the figures the track's records get next to the report
	// ([DrawPlots]), each linked under its section.
	Plots []Plot
	// PairedNote is added to the paired comparisons' caption when a pair
	// of the track's records is compared.
	PairedNote string
	// Noise names the track's noise perturbations: they leave the
	// instruction clear and make perception or execution imperfect, so
	// they are kept out of the rate tables and their "all" columns and
	// shown in SectionRobustness.
	Noise []string
	// TwoRobotFamilies names the track's task families with two robots,
	// which SectionSingleRobot leaves out.
	TwoRobotFamilies []string
	// Words are the track's own words in the report's captions; a zero
	// field keeps the tabletop's.
	Words Words
}

// Words are what a report says of a track's records where the tracks
// differ: what its grid's two dimensions are called, and what makes an
// episode count toward ADA and SR.
type Words struct {
	// Families and Perturbations name the grid's dimensions in the
	// overview ("query types", "input modes"); empty means "task
	// families" and "perturbations".
	Families, Perturbations string
	// ADA and SR define the rates in their tables' captions, as the
	// sentence after "ADA: " and "SR: "; empty means the tabletop's.
	ADA, SR string
}

func (t Track) sections() []Section {
	if len(t.Sections) == 0 {
		return []Section{SectionRates, SectionCost}
	}
	return t.Sections
}
