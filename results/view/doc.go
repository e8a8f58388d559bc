// Package view writes a run as a static site, which ambibench view makes
// under DIR/view/: index.html with the run's settings, outcome counts, the
// report's tables and plots, and a table of every episode, filtered and
// sorted in the browser by a little plain JavaScript (a report table's
// cell of an agent and a perturbation links to the index filtered to its
// failures, a fragment app.js reads, see [CellLink]); the episodes' pages
// with each record (a semmap episode's answered ids against the truth)
// and, when the run kept transcripts, every model call and a household
// episode's game text, trial by trial with the reflections between, read
// from its calls' prompts (one page an episode, episodes/N.html, when it
// kept them; else one a hundred episodes, episodes/g-K.html#eN, see
// [EpisodePage]); and, for two runs, a comparison page.
//
// The site opens from the file system with no network: browsers refuse
// fetch() from a page opened as a file, so the index's data are script
// files (data/records-000.js, …) that hand their rows to a global, 5,000
// rows a file, and the index never loads a transcript. Pages are made with
// html/template, which escapes everything a model wrote; the data files are
// encoded with encoding/json, which escapes <, > and &.
//
// The package knows no track: the caller hands it the records, run.json,
// the report's Markdown and the comparison's Markdown. transcripts.jsonl
// and its images are read with the model layer's own types
// (middleware.TranscriptEntry, imagefile.Path), so that what view reads is
// what the run wrote.
package view
