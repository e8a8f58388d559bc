package prompt

import (
	"regexp"
	"strings"
	"testing"
)

type checkInner struct {
	Name string
	Tags []string
	M    map[string]int
	Any  any
}

type checkEmbedded struct{ Promoted string }

type checkData struct {
	Title string
	Items []checkInner
	Ptr   *checkInner
	ByKey map[string]checkInner
	checkEmbedded
	hidden string
}

func (checkData) Greeting() string       { return "hi" }
func (*checkData) PtrMethod() checkInner { return checkInner{} }
func (checkInner) Upper() checkInner     { return checkInner{} }

// checkOne parses text as the file t.tmpl of a set whose template t.tmpl
// is given data of checkData's type, and checks it.
func checkOne(t *testing.T, text string, data any) error {
	t.Helper()
	s, err := parseSet("test", []File{{Name: "t.tmpl", Text: text, Path: "DIR/test/t.tmpl"}}, typesOf(map[string]any{"t.tmpl": data}))
	if err != nil {
		t.Fatalf("%q does not parse: %v", text, err)
	}
	return s.Check()
}

// TestCheck: the checker follows the data's type through fields, methods,
// range, with, variables and {{template}} calls, refuses a name the type
// does not have with the file and line, and stops at maps and interfaces.
func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, text string
		data      any    // default checkData{}
		err       string // a regexp the error matches; "" for none
	}{
		{why: "fields, and range into the elements", text: "{{.Title}}{{range .Items}}{{.Name}}{{range .Tags}}{{.}}{{end}}{{end}}"},
		{why: "a missing field, named with its line and what the data has", text: "one\ntwo {{.Titel}}", err: `^DIR/test/t\.tmpl:2: \{\{\.Titel\}\}: prompt\.checkData has no field Titel; it has Title, Items, Ptr, ByKey, Promoted, Greeting$`},
		{why: "a missing field of a range's element", text: "{{range .Items}}\n{{.Nmae}}{{end}}", err: `t\.tmpl:2: .*checkInner has no field Nmae`},
		{why: "range's variables", text: "{{range $i, $x := .Items}}{{$x.Name}}{{$i}}{{end}}"},
		{why: "a range variable's missing field", text: "{{range $i, $x := .Items}}{{$x.Nope}}{{end}}", err: `has no field Nope`},
		{why: "range's one variable is the element", text: "{{range $x := .Items}}{{$x.Name}}{{end}}"},
		{why: "with: the pointer's element", text: "{{with .Ptr}}{{.Name}}{{end}}"},
		{why: "with: the inner dot is the pipeline's", text: "{{with .Ptr}}{{.Title}}{{end}}", err: `checkInner has no field Title`},
		{why: "with's else keeps the outer dot", text: "{{with .Ptr}}{{else}}{{.Title}}{{end}}"},
		{why: "a map ends the check", text: "{{.ByKey.anything.Whatever}}"},
		{why: "an interface ends the check", text: "{{range .Items}}{{.Any.Foo.Bar}}{{end}}"},
		{why: "a map's element is ranged over", text: "{{range $k, $v := .ByKey}}{{$k}}{{$v.Name}}{{end}}"},
		{why: "a map's element's missing field", text: "{{range .ByKey}}{{.Nope}}{{end}}", err: `has no field Nope`},
		{why: "a method, and a field of a method's result", text: "{{.Greeting}}{{range .Items}}{{.Upper.Name}}{{end}}"},
		{why: "a method of the pointer is not called on the value passed", text: "{{.PtrMethod}}", err: `has no field PtrMethod`},
		{why: "a field promoted from an embedded struct", text: "{{.Promoted}}"},
		{why: "an unexported field", text: "{{.hidden}}", err: `has no field hidden`},
		{why: "a field of a string", text: "{{.Title.Len}}", err: `string has no field Len`},
		{why: "$ is the template's data", text: "{{range .Items}}{{$.Title}}{{end}}"},
		{why: "$ is not the element", text: "{{range .Items}}{{$.Name}}{{end}}", err: `checkData has no field Name`},
		{why: "a template called with an element", text: "{{define \"sub\"}}{{.Name}}{{end}}{{range .Items}}{{template \"sub\" .}}{{end}}"},
		{why: "a template called with the wrong data: the error is at the define's line", text: "{{template \"sub\" .}}\n\n{{define \"sub\"}}\n{{.Name}}{{end}}", err: `^DIR/test/t\.tmpl:4: \{\{\.Name\}\}: .*checkData has no field Name`},
		{why: "a template called without data", text: "{{define \"sub\"}}{{.Name}}{{end}}{{template \"sub\"}}", err: `given no data`},
		{why: "a template that does not exist", text: "x\n{{template \"nope\" .}}", err: `t\.tmpl:2: .*no template "nope"`},
		{why: "a parenthesized pipeline's field", text: "{{(.Ptr).Name}}{{(index .Items 0).Name}}"},
		{why: "a missing field after index", text: "{{(index .Items 0).Nope}}", err: `has no field Nope`},
		{why: "a function's arguments", text: "{{printf \"%s\" .Nope}}", err: `has no field Nope`},
		{why: "len and a pipeline", text: "{{len .Items}}{{.Title | printf \"%s\"}}"},
		{why: "a declared variable", text: "{{$t := .Ptr}}{{$t.Name}}"},
		{why: "a declared variable's missing field", text: "{{$t := .Ptr}}{{$t.Nope}}", err: `has no field Nope`},
		{why: "a variable declared in an if", text: "{{if $p := .Ptr}}{{$p.Name}}{{end}}"},
		{why: "break and continue", text: "{{range .Items}}{{if .Name}}{{break}}{{end}}{{continue}}{{end}}"},
		{why: "range over a string", text: "{{range .Title}}{{end}}", err: `range can't iterate over string`},
		{why: "no data", text: "{{.Anything}}", data: nil, err: `given no data`},
		{why: "data of an anonymous struct", text: "{{.Problem}}{{.Other}}", data: struct{ Problem string }{}, err: `struct \{ Problem string \} has no field Other; it has Problem$`},
	} {
		data := tc.data
		if data == nil && !strings.Contains(tc.why, "no data") {
			data = checkData{}
		}
		err := checkOne(t, tc.text, data)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %q: %v", tc.why, tc.text, err)
		case tc.err != "" && err == nil:
			t.Errorf("%s: %q passes, want an error matching %s", tc.why, tc.text, tc.err)
		case tc.err != "" && !regexp.MustCompile(tc.err).MatchString(err.Error()):
			t.Errorf("%s: %q: %v, want an error matching %s", tc.why, tc.text, err, tc.err)
		}
	}
}

// TestUntyped: a template no typed one reaches is listed; one that only
// defines others is not.
func TestUntyped(t *testing.T) {
	t.Parallel()
	s, err := parseSet("test", []File{
		{Name: "a.tmpl", Text: `{{template "used" .}}`},
		{Name: "b.tmpl", Text: `{{.Title}}`},
		{Name: "parts.tmpl", Text: "{{define \"used\"}}{{.Title}}{{end}}\n{{define \"unused\"}}x{{end}}\n"},
	}, typesOf(map[string]any{"a.tmpl": checkData{}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Untyped(), ","); got != "b.tmpl,unused" {
		t.Errorf("untyped %q, want b.tmpl,unused", got)
	}
}

// plainData has no map and no interface, so that the check of a chain
// never stops before its end: what the check passes, text/template can
// evaluate.
type plainData struct {
	Title string
	Items []plainItem
	Ptr   *plainItem
	N     int
}

type plainItem struct {
	Name string
	Tags []string
}

func (plainItem) Upper() plainItem { return plainItem{Name: "U"} }

// runtimeFieldError matches what text/template says of a name its data
// does not have, a template that does not exist, or a range over what
// cannot be ranged over: the errors the check is there to catch first.
var runtimeFieldError = regexp.MustCompile(`can't evaluate field|is an unexported field|not defined|range can't iterate`)

// FuzzCheck: the check never panics on any text that parses, with data
// of any shape; and a template it passes, rendered with data of a type
// the check follows to the end, fails on no name the data lacks.
//
//	go test ./agents/prompt -run '^$' -fuzz FuzzCheck -fuzztime 5000x
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"{{.Title}}{{range .Items}}{{.Name}}{{range .Tags}}{{.}}{{end}}{{end}}",
		"{{range $i, $x := .Items}}{{$x.Name}}{{$i}}{{$.Title}}{{end}}",
		"{{with .Ptr}}{{.Name}}{{.Upper.Name}}{{else}}{{.Title}}{{end}}",
		"{{define \"sub\"}}{{.Name}}{{end}}{{range .Items}}{{template \"sub\" .}}{{end}}",
		"{{$t := .Ptr}}{{$t.Name}}{{if $p := .Ptr}}{{$p.Tags}}{{end}}",
		"{{(index .Items 0).Name}}{{len .Items}}{{.Title | printf \"%s\"}}",
		"{{range .N}}{{.}}{{end}}{{.ByKey.x.y}}{{.Any.Foo}}",
		"{{template \"sub\"}}{{define \"sub\"}}{{.X}}{{end}}",
		"{{range .Items}}{{if .Name}}{{break}}{{end}}{{continue}}{{end}}",
		"{{$x := 1}}{{$x = .Title}}{{$x.Foo}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parseSet("fuzz", []File{{Name: "t.tmpl", Text: text, Path: "t.tmpl"}}, typesOf(map[string]any{"t.tmpl": plainData{}}))
		if err != nil {
			return
		}
		for _, data := range []any{checkData{}, nil, 0, []string{}, map[string]any{}} {
			other, _ := parseSet("fuzz", []File{{Name: "t.tmpl", Text: text, Path: "t.tmpl"}}, typesOf(map[string]any{"t.tmpl": data}))
			_ = other.Check()
			_ = other.Untyped()
		}
		if c := s.check(); len(c.errs) > 0 || c.unknown {
			return // refused, or not followed to the end
		}
		// Ranges over numbers the fuzzer writes, nested ranges and
		// templates that call themselves twice could run for long.
		if regexp.MustCompile(`[0-9]{3}`).MatchString(text) || strings.Count(text, "range") > 3 ||
			strings.Count(text, "template")+strings.Count(text, "block") > 2 {
			return
		}
		data := plainData{Title: "t", Items: []plainItem{{Name: "a", Tags: []string{"x"}}, {Name: "b"}}, Ptr: &plainItem{Name: "p"}, N: 2}
		if _, err := s.Render("t.tmpl", data); err != nil && runtimeFieldError.MatchString(err.Error()) {
			t.Errorf("%q passes the check, but rendering it fails: %v", text, err)
		}
	})
}
