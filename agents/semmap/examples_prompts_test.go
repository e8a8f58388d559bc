package semmap

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// exampleRequest is the request line of a worked example in a rendered
// prompt.
var exampleRequest = regexp.MustCompile(`(?m)^Example \d+\. Map:\n(?s:.*?)\nRequest: (.*)$`)

// The worked examples every prompt shows (plan, reflect, refine, and the
// multi-agent variants, all examples, both input modes) are
// ExampleRequests, no more and no fewer: what bench/semmap's
// TestWorkedExamplesAreNotDatasetQueries holds apart from every query
// ambibench ships or generates (that test lives there, as a package of
// agents/ may not import tasks/mapqueries).
func TestExampleRequestsAreThePrompts(t *testing.T) {
	all := ExampleCounts{len(planExampleData), len(reflectExampleData), len(refineExampleData)}
	var shown []string
	for _, tc := range []struct{ tmpl, role string }{
		{"semmap_plan.tmpl", llm.CallPlan}, {"semmap_agent_plan.tmpl", llm.CallPlan},
		{"semmap_reflect.tmpl", llm.CallReflect}, {"semmap_agent_reflect.tmpl", llm.CallReflect},
		{"semmap_refine.tmpl", llm.CallRefine}, {"semmap_agent_refine.tmpl", llm.CallRefine},
	} {
		for _, mode := range []string{agents.ModeCertainty, agents.ModeUncertainty} {
			text, err := render(tc.tmpl, semmapGolden(tc.role, mode, all, true))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range exampleRequest.FindAllStringSubmatch(text, -1) {
				n++
				if !slices.Contains(shown, m[1]) {
					shown = append(shown, m[1])
				}
			}
			if n == 0 {
				t.Errorf("%s (%s) shows no example", tc.tmpl, mode)
			}
		}
	}
	want := ExampleRequests()
	slices.Sort(shown)
	slices.Sort(want)
	if !slices.Equal(shown, want) {
		t.Errorf("the prompts show the example requests\n%q\nExampleRequests gives\n%q", shown, want)
	}
}

// The worked examples teach what the truth rules say: where the
// reference reading reads an example's request, the answer a plan
// example gives, a review keeps, or a revision ends in is what the
// reading resolves to over the example's map (each object its most
// probable class, near within 1.5 m); the answers a review or a
// revision corrects are not.
func TestWorkedExamplesAreRight(t *testing.T) {
	ids := func(answer string) []string {
		a, err := ParseSemmapReply(answer)
		if err != nil {
			t.Fatalf("%q: %v", answer, err)
		}
		return a.RelevantObjects
	}
	check := func(kind string, m *scenes.SemanticMap, query, answer string, right bool) {
		t.Helper()
		r, ok := scenes.ParseObjectQuery(query)
		if !ok {
			return
		}
		want := scenes.ResolveObjects(m, r)
		if got := ids(answer); slices.Equal(got, want) != right && !(len(got) == 0 && len(want) == 0 && right) {
			t.Errorf("%s example %q on %s: answer %v, the reading %v resolves to %v (want them %s)", kind, query, m.Name, got, r, want,
				map[bool]string{true: "equal", false: "different"}[right])
		}
	}
	for _, e := range planExampleData {
		check("plan", e.m, e.query, e.answer, true)
	}
	for _, e := range reflectExampleData {
		check("reflect", e.m, e.query, e.answer, strings.HasSuffix(e.feedback, "- keep the answer"))
	}
	for _, e := range refineExampleData {
		check("refine", e.m, e.query, e.revised, true)
		// The answer under review is wrong, but where the revision
		// declines the critique and keeps it.
		check("refine (the answer revised)", e.m, e.query, e.answer, slices.Equal(ids(e.answer), ids(e.revised)))
	}
}
