// Package reports turns a run's records into the Markdown a reader trusts:
// the report of ambibench report, its plots, and the tables of a run's
// summary.
//
// # The report
//
// [Write] writes the report of a set of records: an overview, then the
// sections the records' tracks ask for, then McNemar's exact test between
// agents on the same episodes. Every rate comes with its n and 95% Wilson
// interval; the output depends on the records as a set and on [Options],
// never on their order.
//
// [Report] is the same a record at a time, for a reader of a run too large
// to hold ([New], [Report.Add] as the records are read, [Report.DrawPlots]
// and [Report.Write]): it keeps each record packed, in a few dozen bytes
// of varints with its names and its maps of counts kept once in the
// report, and a section reads the records it needs by unpacking them
// again. It does not keep the instruction, the robots' messages (their
// number it does) or acted_by, which no section reads; a track's own
// section ([NewSection]) sees its records without them. A report of a
// million episodes peaks at a few hundred megabytes, where the records
// themselves would take gigabytes.
//
// # What a track contributes
//
// The report knows no track and no agent: each track says what its
// records get in a [Track] (bench.Track's Report method gives it, and the
// command passes every registered track's in [Options.Tracks]):
//
//   - its sections, in order ([Track.Sections]): the built-in ones
//     ([SectionRates], [SectionCost], [SectionTrials], [SectionTopK], …),
//     those made for it ([SectionAblations] of its ablation group,
//     [SectionOverReflection] against its baseline, a published cut's
//     [TrialCut.Section]), or one of its own ([NewSection]);
//   - its baseline agent, which its workflows are compared with pair by
//     pair ([Track.Baseline]);
//   - its plots ([Track.Plots]), its noise perturbations and two-robot
//     families, and its words in the captions ([Words]).
//
// A section listed by several tracks is written once, over the records of
// the tracks that list it. A published cut (DyRef's, say) is a [TrialCut]
// a track lists; [Options.Cut] asks for it by name, and [Cuts] names those
// the tracks offer.
//
// # Plots
//
// [DrawPlots] draws the PNG figures the tracks list ([Plot]: [PlotRates],
// [PlotTrials], [PlotSceneSize], [PlotMapSize], or [NewPlot]), each with
// its 95% intervals; the report links each under its section
// ([Options.Plots]). The same records give the same bytes.
//
// # Tables of a run
//
// [Markdown] writes the cells of stats.Aggregate as an agent × perturbation
// table of ADA and SR (a run's summary.md); [TopKMarkdown] the semmap
// track's Top-k table; [InfraMarkdown] the episodes lost to infrastructure
// errors, which no rate counts.
package reports
