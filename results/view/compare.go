package view

import (
	"bytes"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"

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
//
// It reads base's records twice and new's once, and keeps of each base
// record 24 bytes (two hashes of its key, its place and what is
// compared), not the record: the changed ones alone are kept whole.
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
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	hash := func(r *results.Record) [2]uint64 {
		k := r.EpisodeKey()
		return [2]uint64{maphash.String(seeds[0], k), maphash.String(seeds[1], k)}
	}
	type held struct {
		i                int32
		outcome          uint8 // its place in outcomes
		success, ada, ok bool
	}
	var outcomes []string // a record's outcome is one of a few
	outcome := func(o string) uint8 {
		k := slices.Index(outcomes, o)
		if k < 0 {
			k = len(outcomes)
			outcomes = append(outcomes, o)
		}
		return uint8(k)
	}
	byKey := map[[2]uint64]held{}
	i := 0
	if err := base.Records(func(r *results.Record) error {
		byKey[hash(r)] = held{int32(i), outcome(r.Outcome), r.Success, r.ADA, true}
		i++
		return nil
	}); err != nil {
		return "", err
	}
	p := comparePage{Base: base.Dir, New: new.Dir, Table: parseMarkdown(markdown)}
	changedBase := map[int32][]int{} // a base record's place: its Changed
	j := 0
	if err := new.Records(func(n *results.Record) error {
		defer func() { j++ }()
		b := byKey[hash(n)]
		if !b.ok {
			return nil
		}
		p.Pairs++
		if outcomes[b.outcome] == n.Outcome && b.success == n.Success && b.ada == n.ADA {
			return nil
		}
		nc := *n
		changedBase[b.i] = append(changedBase[b.i], len(p.Changed))
		p.Changed = append(p.Changed, Changed{Key: n.PlainKey(), New: &nc,
			BaseLink: rel + "/" + EpisodePage(baseKept, int(b.i)), NewLink: EpisodePage(newKept, j)})
		return nil
	}); err != nil {
		return "", err
	}
	if len(changedBase) > 0 {
		i = 0
		if err := base.Records(func(r *results.Record) error {
			if cs, ok := changedBase[int32(i)]; ok {
				bc := *r
				for _, c := range cs {
					p.Changed[c].Base = &bc
				}
			}
			i++
			return nil
		}); err != nil {
			return "", err
		}
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "compare.html.tmpl", p); err != nil {
		return "", err
	}
	path := filepath.Join(newSite, "compare.html")
	return path, os.WriteFile(path, b.Bytes(), 0o644)
}
