package prompt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template/parse"
)

// Overrides are the templates a run reads in place of the built-in ones
// (run --prompts DIR). They are made by [Load] and not changed after; a
// run hands them down in its context ([WithOverrides]), and a workflow
// renders with [Set.In], so that two runs in one process, at once or one
// after the other, each render their own.
type Overrides struct {
	dir      string
	sets     map[string]*Set
	replaced []Replaced
}

// Replaced is a template file that differs from the built-in one.
type Replaced struct {
	Set, File string
	Path      string // where it was read
	SHA256    string // of its bytes, hex
}

// SettingPrefix starts the name of a replaced template's setting in
// run.json: "prompt:SET/FILE", whose value is the SHA-256 of the file.
// results.PromptSettingPrefix, by which compare reads them, is the same
// (a test of the command holds the two equal).
const SettingPrefix = "prompt:"

// Setting is the name of the template's setting in run.json.
func (r Replaced) Setting() string { return SettingPrefix + r.Set + "/" + r.File }

// Dir is the directory the overrides were read from.
func (o *Overrides) Dir() string {
	if o == nil {
		return ""
	}
	return o.dir
}

// Replaced lists the templates that differ from the built-in ones, by set
// and file.
func (o *Overrides) Replaced() []Replaced {
	if o == nil {
		return nil
	}
	return slices.Clone(o.replaced)
}

// Settings are the run.json settings of the replaced templates of the
// named sets (all of them when none is named): "prompt:SET/FILE" → the
// file's SHA-256. A template that is the built-in one is not among them,
// so a directory exported and left as it was changes no setting.
func (o *Overrides) Settings(sets ...string) map[string]string {
	out := map[string]string{}
	if o == nil {
		return out
	}
	for _, r := range o.replaced {
		if len(sets) == 0 || slices.Contains(sets, r.Set) {
			out[r.Setting()] = r.SHA256
		}
	}
	return out
}

type ctxKey struct{}

// WithOverrides returns a context whose renders ([Set.In]) use o; nil o
// changes nothing.
func WithOverrides(ctx context.Context, o *Overrides) context.Context {
	if o == nil || len(o.sets) == 0 {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, o)
}

// FromContext returns the overrides ctx carries, or nil.
func FromContext(ctx context.Context) *Overrides {
	o, _ := ctx.Value(ctxKey{}).(*Overrides)
	return o
}

// In returns the set as the run of ctx has it: with the templates its
// overrides replace, or s itself. It is what a workflow renders with.
func (s *Set) In(ctx context.Context) *Set {
	if ctx == nil {
		return s
	}
	o := FromContext(ctx)
	if o == nil {
		return s
	}
	if r, ok := o.sets[s.name]; ok {
		return r
	}
	return s
}

// Load reads the templates of dir that replace built-in ones: dir/SET/FILE
// for a registered set and one of its files, any subset of them, as
// [Export] writes them. A file or directory that names no set or
// template is refused, naming it (hidden ones, such as .git, are passed
// over), and so is a template that does not parse or that names a field
// its workflow does not give ([Set.Check]): the error names the file and
// line. A file whose text is the built-in one replaces nothing.
func Load(dir string) (*Overrides, error) {
	top, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	o := &Overrides{dir: dir, sets: map[string]*Set{}}
	var errs []error
	for _, e := range top {
		p := filepath.Join(dir, e.Name())
		if hidden(e.Name()) {
			continue
		}
		s, ok := Lookup(e.Name())
		if !ok || !isDir(p) {
			errs = append(errs, fmt.Errorf("%s: no workflow's prompts are called %s; %s holds a directory per workflow (%s), each with some of its templates, as ambibench prompts export writes them",
				p, e.Name(), dir, strings.Join(SetNames(), ", ")))
			continue
		}
		r, replaced, err := s.load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(replaced) > 0 {
			o.sets[s.name] = r
			o.replaced = append(o.replaced, replaced...)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(o.replaced, func(a, b Replaced) int { return strings.Compare(a.Setting(), b.Setting()) })
	return o, nil
}

// load reads the set's templates in dir and returns the set with them in
// place of its own, checked, and the templates that differ.
func (s *Set) load(dir string) (*Set, []Replaced, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	files := slices.Clone(s.files)
	var replaced []Replaced
	var errs []error
	for _, e := range entries {
		if hidden(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		i := slices.IndexFunc(files, func(f File) bool { return f.Name == e.Name() })
		if i < 0 || !isFile(p) {
			errs = append(errs, fmt.Errorf("%s: the %s workflows have no template %s%s (ambibench prompts export writes every one)", p, s.name, e.Name(), suggest(e.Name(), s.files)))
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if string(b) == files[i].Text {
			continue
		}
		f := File{Name: e.Name(), Text: string(b), Path: p}
		// Each file parsed on its own first, so that every file that
		// does not parse is named, not only the first; the others are
		// checked with the built-in text in its place.
		if _, err := template1(f); err != nil {
			errs = append(errs, err)
			continue
		}
		files[i] = f
		sum := sha256.Sum256(b)
		replaced = append(replaced, Replaced{Set: s.name, File: f.Name, Path: p, SHA256: hex.EncodeToString(sum[:])})
	}
	if len(replaced) == 0 {
		return s, nil, errors.Join(errs...)
	}
	r, err := parseSet(s.name, files, s.data)
	if err == nil {
		r.keep(s)
		err = r.Check()
	}
	if err != nil || len(errs) > 0 {
		return nil, nil, errors.Join(append(errs, err)...)
	}
	return r, replaced, nil
}

// keep adds to r the templates of the built-in set s that r lacks: the
// {{define}}s of a file r replaces that its text does not define (other
// files may call them: a replaced react_system.tmpl, say, without the
// house_rules that react_text_system.tmpl calls). A replacement redefines
// what it names and leaves the rest as built.
func (r *Set) keep(s *Set) {
	for _, t := range s.t.Templates() {
		if t.Name() == "" || t.Tree == nil || r.t.Lookup(t.Name()) != nil {
			continue
		}
		if r.kept == nil {
			r.kept = map[*parse.Tree]bool{}
		}
		// Parse trees are not changed once parsed: the two sets share it.
		if _, err := r.t.AddParseTree(t.Name(), t.Tree); err == nil {
			r.kept[t.Tree] = true
		}
	}
}

// suggest names the set's file closest to name, when one is close: a
// typo, or another extension.
func suggest(name string, files []File) string {
	best, dist := "", 4
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	for _, f := range files {
		d := editDistance(stem, strings.TrimSuffix(f.Name, ".tmpl"))
		if d < dist {
			best, dist = f.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
