package semmap

import (
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/scenes"
)

// The in-context examples of the semmap prompts: the project's own small
// maps and requests, in the form paper 000 gives each prompt (§3.2–3.3):
// the planning prompt's ⟨map, request → answer⟩, the reflection prompt's
// ⟨map, request, answer → critique⟩ and the refinement prompt's ⟨map,
// answer, critique → revised answer⟩ (with the request too, which the
// refinement prompt shows). Each example's map is shown in the episode's
// input mode, as the episode's map is.

// ExampleCounts are how many in-context examples the planning, reflection
// and refinement prompts carry.
type ExampleCounts struct{ Plan, Reflect, Refine int }

// PaperExamples are paper 000's counts (§5.1): three examples in the
// planning prompts, seven in the reflection prompts, three in the
// refinement prompts (and none in the chooser's). Every workflow defaults
// to them; the semmap track's --examples sets others for a run (2,0,0 is
// the project's earlier protocol).
var PaperExamples = ExampleCounts{Plan: 3, Reflect: 7, Refine: 3}

// semmapExample is one example of the planning prompt.
type semmapExample struct {
	N                  int
	Map, Query, Answer string
}

// semmapReflectExample is one example of the reflection prompt.
type semmapReflectExample struct {
	N                            int
	Map, Query, Answer, Feedback string
}

// semmapRefineExample is one example of the refinement prompt.
type semmapRefineExample struct {
	N                                     int
	Map, Query, Answer, Feedback, Revised string
}

// The example maps: a handful of objects each, a room apiece.
var (
	exLivingRoom = scenes.SemanticMap{Name: "example_living_room", Instances: []scenes.Instance{
		{ID: "obj1", Center: [3]float64{1.2, 0.4, 0.45}, Size: [3]float64{0.5, 0.5, 0.9}, Observations: 41,
			Classes: []scenes.ClassScore{{Class: "chair", P: 0.82}, {Class: "couch", P: 0.18}}},
		{ID: "obj2", Center: [3]float64{-0.8, 1.5, 0.4}, Size: [3]float64{2.0, 0.9, 0.8}, Observations: 77,
			Classes: []scenes.ClassScore{{Class: "couch", P: 0.91}, {Class: "bed", P: 0.09}}},
		{ID: "obj3", Center: [3]float64{1.0, 1.1, 0.38}, Size: [3]float64{1.2, 0.8, 0.75}, Observations: 52,
			Classes: []scenes.ClassScore{{Class: "dining table", P: 1}}},
	}}
	exKitchen = scenes.SemanticMap{Name: "example_kitchen", Instances: []scenes.Instance{
		{ID: "obj1", Center: [3]float64{0.3, 2.1, 0.9}, Size: [3]float64{0.7, 0.7, 1.8}, Observations: 63,
			Classes: []scenes.ClassScore{{Class: "refrigerator", P: 0.95}, {Class: "cabinet", P: 0.05}}},
		{ID: "obj2", Center: [3]float64{1.4, 2.2, 0.45}, Size: [3]float64{0.6, 0.6, 0.9}, Observations: 30,
			Classes: []scenes.ClassScore{{Class: "oven", P: 0.7}, {Class: "dishwasher", P: 0.3}}},
		{ID: "obj3", Center: [3]float64{2.2, 2.2, 0.85}, Size: [3]float64{0.8, 0.5, 0.2}, Observations: 25,
			Classes: []scenes.ClassScore{{Class: "sink", P: 1}}},
	}}
	exFlat = scenes.SemanticMap{Name: "example_flat", Instances: []scenes.Instance{
		{ID: "obj4", Center: [3]float64{0.2, 0.3, 1.0}, Size: [3]float64{0.5, 0.4, 0.3}, Observations: 19,
			Classes: []scenes.ClassScore{{Class: "microwave", P: 0.88}, {Class: "oven", P: 0.12}}},
		{ID: "obj7", Center: [3]float64{0.9, 0.3, 0.45}, Size: [3]float64{0.6, 0.6, 0.9}, Observations: 44,
			Classes: []scenes.ClassScore{{Class: "oven", P: 0.97}, {Class: "cabinet", P: 0.03}}},
		{ID: "obj9", Center: [3]float64{2.5, 1.0, 0.4}, Size: [3]float64{1.0, 0.6, 0.75}, Observations: 36,
			Classes: []scenes.ClassScore{{Class: "dining table", P: 1}}},
	}}
	exStudy = scenes.SemanticMap{Name: "example_study", Instances: []scenes.Instance{
		{ID: "obj1", Center: [3]float64{0.6, 0.3, 0.38}, Size: [3]float64{1.2, 0.6, 0.75}, Observations: 88,
			Classes: []scenes.ClassScore{{Class: "desk", P: 0.86}, {Class: "dining table", P: 0.14}}},
		{ID: "obj2", Center: [3]float64{0.6, 0.9, 0.45}, Size: [3]float64{0.5, 0.5, 0.9}, Observations: 40,
			Classes: []scenes.ClassScore{{Class: "chair", P: 1}}},
		{ID: "obj3", Center: [3]float64{0.5, 0.25, 0.77}, Size: [3]float64{0.35, 0.25, 0.03}, Observations: 31,
			Classes: []scenes.ClassScore{{Class: "laptop", P: 0.74}, {Class: "keyboard", P: 0.26}}},
		{ID: "obj4", Center: [3]float64{2.4, 0.2, 0.9}, Size: [3]float64{1.0, 0.35, 1.8}, Observations: 57,
			Classes: []scenes.ClassScore{{Class: "shelf", P: 1}}},
		{ID: "obj5", Center: [3]float64{2.3, 0.2, 1.22}, Size: [3]float64{0.22, 0.15, 0.04}, Observations: 12,
			Classes: []scenes.ClassScore{{Class: "book", P: 0.9}, {Class: "laptop", P: 0.1}}},
		{ID: "obj6", Center: [3]float64{0.95, 0.35, 0.77}, Size: [3]float64{0.15, 0.07, 0.01}, Observations: 14,
			Classes: []scenes.ClassScore{{Class: "cell phone", P: 0.83}, {Class: "remote", P: 0.17}}},
	}}
	exBedroom = scenes.SemanticMap{Name: "example_bedroom", Instances: []scenes.Instance{
		{ID: "obj1", Center: [3]float64{1.5, 1.2, 0.28}, Size: [3]float64{2.0, 1.6, 0.55}, Observations: 120,
			Classes: []scenes.ClassScore{{Class: "bed", P: 0.93}, {Class: "couch", P: 0.07}}},
		{ID: "obj2", Center: [3]float64{0.2, 0.3, 0.3}, Size: [3]float64{0.5, 0.4, 0.6}, Observations: 35,
			Classes: []scenes.ClassScore{{Class: "cabinet", P: 1}}},
		{ID: "obj3", Center: [3]float64{0.2, 0.3, 0.75}, Size: [3]float64{0.2, 0.08, 0.2}, Observations: 9,
			Classes: []scenes.ClassScore{{Class: "clock", P: 0.66}, {Class: "vase", P: 0.34}}},
		{ID: "obj4", Center: [3]float64{3.1, 0.4, 0.25}, Size: [3]float64{0.35, 0.25, 0.5}, Observations: 22,
			Classes: []scenes.ClassScore{{Class: "backpack", P: 0.81}, {Class: "handbag", P: 0.19}}},
		{ID: "obj5", Center: [3]float64{1.3, 1.0, 0.73}, Size: [3]float64{0.3, 0.25, 0.35}, Observations: 27,
			Classes: []scenes.ClassScore{{Class: "teddy bear", P: 0.88}, {Class: "handbag", P: 0.12}}},
		{ID: "obj6", Center: [3]float64{2.8, 2.2, 0.11}, Size: [3]float64{0.22, 0.22, 0.22}, Observations: 11,
			Classes: []scenes.ClassScore{{Class: "sports ball", P: 0.79}, {Class: "bowl", P: 0.21}}},
	}}
)

func answer(achievable bool, inferred, explanation string, ids ...string) string {
	if ids == nil {
		ids = []string{}
	}
	return FormatAnswer(agents.AnswerArgs{InferredQuery: inferred, QueryAchievable: achievable, RelevantObjects: ids, Explanation: explanation})
}

// critique writes a reflection in the form the reflection prompt asks for.
func critique(correctness, relevance, clarity string, suggestions ...string) string {
	return "1. Correctness: " + correctness + "\n2. Relevance: " + relevance + "\n3. Clarity: " + clarity +
		"\nSuggestions:\n" + strings.Join(suggestions, "\n")
}

// The requests of the examples are the project's own and ask nothing any
// dataset ambibench ships or generates asks, in its words or in others
// (TestWorkedExamplesAreNotDatasetQueries): an example that answered a
// test query would hand the model its answer.

// planExampleData are in the order they join a prompt: a negation first
// (the query type models miss most), then a request nothing in the map
// serves (the answer reflection most often spoils), then an affordance
// with two objects ranked.
var planExampleData = []struct {
	m             *scenes.SemanticMap
	query, answer string
}{
	{&exFlat, "Which of these can I open, apart from the oven?",
		answer(true, "Find something that opens, other than an oven.", "obj4, the microwave, has a door that opens; obj7 is the oven, which the request leaves out; obj9, a table, does not open.", "obj4")},
	{&exKitchen, "Where could I take a shower?",
		answer(false, "Find a shower.", "No object in the map is a shower or a bathtub; obj3, the sink, is for hands and dishes, not for a shower.")},
	{&exStudy, "I have to ring the plumber.",
		answer(true, "Find a device to make a phone call.", "obj6, a cell phone, is made for calls; obj3, a laptop, can place a call too, less handily.", "obj6", "obj3")},
}

// The answers the reflection and refinement examples review.
var (
	exMugWithDesk = answer(true, "Find a surface for a mug, other than the desk.", "obj1, the desk, and obj4, the shelf, both take a mug.", "obj1", "obj4")
	exMug         = answer(true, "Find a surface for a mug, other than the desk.", "obj4, the shelf, takes a mug; obj1 is the desk, which the request excludes.", "obj4")
	exIron        = answer(true, "Find an iron.", "obj2, the cabinet, may hold an iron.", "obj2")
	exNoIron      = answer(false, "Find an iron.", "No object in the map is an iron.")
	exDoors       = answer(true, "Find the appliances with a door.", "obj1, the refrigerator, and obj2, the oven, both have a door.", "obj1", "obj2")
	exCritMug     = critique("4/10. obj1 is the desk, and the request excludes the desk.", "5/10. obj4 is right; obj1 does not belong.", "8/10. Short, but it says nothing of the exclusion.",
		"- remove obj1: it is the desk, which the request excludes.")
	exCritIron = critique("3/10. The request asks for an iron and the map has none; obj2 is a cabinet.", "3/10. A cabinet only might hold one.", "8/10. Clear.",
		"- answer with no objects: no object in the map is an iron.")
	exCritDoors = critique("6/10. obj1 and obj2 are right.", "5/10. obj3, the sink, often has a cupboard door under it.", "8/10. Clear.",
		"- add obj3: there is a door under the sink.")
)

// reflectExampleData cover what a review must catch and what it must
// leave alone: an excluded object kept, a right answer, objects where
// nothing serves, a right empty answer (which over-reflection spoils), a
// missing object, a misranked one, and an id the map does not have.
var reflectExampleData = []struct {
	m                       *scenes.SemanticMap
	query, answer, feedback string
}{
	{&exStudy, "Somewhere to put my mug down, not the desk.", exMugWithDesk, exCritMug},
	{&exBedroom, "Where is the alarm clock?",
		answer(true, "Find the clock.", "obj3 is the clock.", "obj3"),
		critique("10/10. obj3 is the map's only clock.", "10/10. Nothing is missing and nothing is extra.", "9/10. Short and clear.",
			"- keep the answer")},
	{&exBedroom, "Is there an iron for my shirt?", exIron, exCritIron},
	{&exLivingRoom, "Is there a floor lamp by the sofa?",
		answer(false, "Find a lamp near the couch.", "The map has a couch but no lamp."),
		critique("10/10. There is no lamp in the map, so no object serves.", "10/10. The empty list is right; the chair or the table would not be a lamp.", "9/10. Clear.",
			"- keep the answer")},
	{&exKitchen, "Which of the kitchen appliances have a door I can open?",
		answer(true, "Find the appliances with a door.", "obj1, the refrigerator, has a door.", "obj1"),
		critique("7/10. The refrigerator is right.", "5/10. obj2, the oven, has a door too and is missing.", "8/10. Clear.",
			"- add obj2: an oven has a door that opens.")},
	{&exBedroom, "Where can I stow my winter blankets?",
		answer(true, "Find storage for blankets.", "obj4 is a backpack and obj2 a cabinet; both hold blankets.", "obj4", "obj2"),
		critique("8/10. Both objects can hold blankets.", "5/10. A cabinet holds a stack of blankets far better than a backpack and should come first.", "8/10. Clear.",
			"- put obj2 first: a cabinet is the better place for blankets.")},
	{&exBedroom, "Find something the children can play with.",
		answer(true, "Find toys.", "obj5 is a teddy bear, obj6 a ball and obj8 a toy box.", "obj5", "obj6", "obj8"),
		critique("3/10. There is no obj8 in the map.", "6/10. obj5 and obj6 are toys.", "6/10. It names a toy box the map does not have.",
			"- remove obj8: there is no object obj8 in the map.")},
}

// refineExampleData apply a right critique, a critique that empties an
// answer, and one that asks for an object that does not serve the
// request, which the revision declines.
var refineExampleData = []struct {
	m                                *scenes.SemanticMap
	query, answer, feedback, revised string
}{
	{&exStudy, "Somewhere to put my mug down, not the desk.", exMugWithDesk, exCritMug, exMug},
	{&exBedroom, "Is there an iron for my shirt?", exIron, exCritIron, exNoIron},
	{&exKitchen, "Which of the kitchen appliances have a door I can open?", exDoors, exCritDoors,
		answer(true, "Find the appliances with a door.", "obj1, the refrigerator, and obj2, the oven, have doors; obj3 is the sink, which has no door of its own, so it stays out.", "obj1", "obj2")},
}

// ExampleRequests are the requests of every worked example the prompts
// can carry: the planning examples, then the reflection and the
// refinement examples, each once. No dataset ambibench ships or generates
// may ask one of them, in its words or in others (bench/semmap's
// TestWorkedExamplesAreNotDatasetQueries; TestExampleRequestsAreThePrompts'
// holds them to what the prompts show).
func ExampleRequests() []string {
	var out []string
	add := func(q string) {
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, e := range planExampleData {
		add(e.query)
	}
	for _, e := range reflectExampleData {
		add(e.query)
	}
	for _, e := range refineExampleData {
		add(e.query)
	}
	return out
}

// planExamples renders the first n planning examples with maps in a mode.
func planExamples(mode string, n int) []semmapExample {
	n = max(0, min(n, len(planExampleData)))
	out := make([]semmapExample, n)
	for i, e := range planExampleData[:n] {
		out[i] = semmapExample{N: i + 1, Map: mapInput(e.m, mode), Query: e.query, Answer: e.answer}
	}
	return out
}

// reflectExamples renders the first n reflection examples.
func reflectExamples(mode string, n int) []semmapReflectExample {
	n = max(0, min(n, len(reflectExampleData)))
	out := make([]semmapReflectExample, n)
	for i, e := range reflectExampleData[:n] {
		out[i] = semmapReflectExample{N: i + 1, Map: mapInput(e.m, mode), Query: e.query, Answer: e.answer, Feedback: e.feedback}
	}
	return out
}

// refineExamples renders the first n refinement examples.
func refineExamples(mode string, n int) []semmapRefineExample {
	n = max(0, min(n, len(refineExampleData)))
	out := make([]semmapRefineExample, n)
	for i, e := range refineExampleData[:n] {
		out[i] = semmapRefineExample{N: i + 1, Map: mapInput(e.m, mode), Query: e.query, Answer: e.answer, Feedback: e.feedback, Revised: e.revised}
	}
	return out
}
