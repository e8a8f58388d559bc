package prompt

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

var testFS = fstest.MapFS{
	"prompts/hello.tmpl": {Data: []byte(`{{define "hello"}}Hello, {{.Name}}: {{range .Items}}[{{.}}]{{end}}{{end}}`)},
	"prompts/fails.tmpl": {Data: []byte(`{{define "fails"}}half of it, then {{.Missing.Field}}{{end}}`)},
	"prompts/big.tmpl":   {Data: []byte(`{{define "big"}}{{.}}{{end}}`)},
}

type helloData struct {
	Name  string
	Items []int
}

// TestRender: the pooled buffer changes nothing a caller can see.
func TestRender(t *testing.T) {
	s := Must(testFS, "prompts/*.tmpl")
	huge := strings.Repeat("x", 2*maxPooled)
	tests := []struct {
		name, why string
		tmpl      string
		data      any
		want      string
		wantErr   bool
	}{
		{"plain", "fields and a range are filled", "hello", helloData{"robot", []int{1, 2}}, "Hello, robot: [1][2]", false},
		{"fails", "an error mid-way is returned, and its half-written text is not", "fails", struct{ Missing *struct{ Field int } }{}, "", true},
		{"after a failure", "the text a failed render left in the buffer does not lead the next one", "hello", helloData{"again", nil}, "Hello, again: ", false},
		{"huge", "a text larger than the pool keeps is whole", "big", huge, huge, false},
		{"after huge", "the next render, in a fresh buffer, is its own text only", "hello", helloData{"small", []int{3}}, "Hello, small: [3]", false},
		{"unknown", "a template that is not in the set is an error naming it", "nope", nil, "", true},
	}
	for _, tc := range tests {
		got, err := s.Render(tc.tmpl, tc.data)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s (%s): error %v, want error %v", tc.name, tc.why, err, tc.wantErr)
		}
		if got != tc.want {
			t.Errorf("%s (%s): got %.60q (%d bytes), want %.60q (%d bytes)", tc.name, tc.why, got, len(got), tc.want, len(tc.want))
		}
	}
}

// TestRenderConcurrent: renders at once, through the shared pool, are
// each their own text; a rendered string is not overwritten by a later
// render that reuses its buffer.
func TestRenderConcurrent(t *testing.T) {
	s := Must(testFS, "prompts/*.tmpl")
	first, err := s.Render("hello", helloData{"first", []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 100 {
				items := make([]int, k)
				var want strings.Builder
				want.WriteString("Hello, g: ")
				for i := range items {
					items[i] = g + i
					want.WriteString("[" + strconv.Itoa(g+i) + "]")
				}
				got, err := s.Render("hello", helloData{"g", items})
				if err != nil || got != want.String() {
					t.Errorf("goroutine %d render %d: %q, %v; want %q", g, k, got, err, want.String())
					return
				}
			}
		})
	}
	wg.Wait()
	if first != "Hello, first: [0]" {
		t.Errorf("an earlier render's string changed to %q", first)
	}
}
