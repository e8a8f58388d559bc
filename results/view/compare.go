package view

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results"
)

// Changed is an episode whose outcome, success or ADA differs between
// two runs, with its page in each site.
type Changed struct {
	Key               string
	Base, New         *results.Record
	BaseLink, NewLink string
}

type comparePage struct {
	Base, New string
	Table     []block
	Changed   []Changed
	Pairs     int
}

// WriteCompare writes compare.html into the site of the run new, beside
// its index: the comparison's Markdown (results/compare's) as tables, and
// the episodes, paired by [results.Record.EpisodeKey], whose outcome,
// success or ADA changed, each linking to its page in both sites. Write
// both sites first (the index links to the comparison when it is there).
func WriteCompare(base, new Run, markdown string) (string, error) {
	newSite := filepath.Join(new.Dir, SiteDir)
	baseSite := filepath.Join(base.Dir, SiteDir)
	rel, err := filepath.Rel(newSite, baseSite)
	if err != nil {
		abs, _ := filepath.Abs(baseSite)
		rel = abs
	}
	rel = filepath.ToSlash(rel)
	baseKept, newKept := keptTranscripts(base.Dir), keptTranscripts(new.Dir)
	byKey := make(map[string]int, len(base.Records))
	for i := range base.Records {
		byKey[base.Records[i].EpisodeKey()] = i
	}
	p := comparePage{Base: base.Dir, New: new.Dir, Table: parseMarkdown(markdown)}
	for j := range new.Records {
		n := &new.Records[j]
		i, ok := byKey[n.EpisodeKey()]
		if !ok {
			continue
		}
		p.Pairs++
		b := &base.Records[i]
		if b.Outcome == n.Outcome && b.Success == n.Success && b.ADA == n.ADA {
			continue
		}
		p.Changed = append(p.Changed, Changed{Key: n.PlainKey(), Base: b, New: n,
			BaseLink: rel + "/" + EpisodePage(baseKept, i), NewLink: EpisodePage(newKept, j)})
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "compare.html.tmpl", p); err != nil {
		return "", err
	}
	path := filepath.Join(newSite, "compare.html")
	return path, os.WriteFile(path, b.Bytes(), 0o644)
}
