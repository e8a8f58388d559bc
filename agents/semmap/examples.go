package semmap

import (
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

// planExampleData are in the order they join a prompt: a negation first
// (the query type models miss most), then a request nothing in the map
// serves (the answer reflection most often spoils), then an affordance
// with two objects ranked.
var planExampleData = []struct {
	m             *scenes.SemanticMap
	query, answer string
}{
	{&exLivingRoom, "Tell me something I can sit on that is not a couch.",
		answer(true, "Find a seat other than a couch.", "obj1 is a chair, a seat that is not a couch; obj2 is a couch and is excluded.", "obj1")},
	{&exKitchen, "Where can I take a bath?",
		answer(false, "Find a bathtub.", "No object in the map is a bathtub or anything one could bathe in; a sink does not serve.")},
	{&exFlat, "I want to warm up my soup.",
		answer(true, "Find an appliance that heats food.", "obj4, a microwave, heats a bowl of soup quickest; obj7, an oven, can heat it too.", "obj4", "obj7")},
}

// The answers the reflection and refinement examples review.
var (
	exSeatWithCouch = answer(true, "Find a seat that is not the sofa.", "obj1 is a chair and obj2 a couch; both are seats.", "obj1", "obj2")
	exSeat          = answer(true, "Find a seat that is not the sofa.", "obj1 is a chair; obj2 is a couch, which the request excludes.", "obj1")
	exBike          = answer(true, "Find a bicycle.", "obj4 is a backpack, which one takes on a bicycle ride.", "obj4")
	exNoBike        = answer(false, "Find a bicycle.", "No object in the map is a bicycle.")
	exRinse         = answer(true, "Find somewhere to rinse a cup.", "obj3 is a sink, where a cup is rinsed.", "obj3")
	exCritSeat      = critique("4/10. obj2 is a couch, and the request excludes couches.", "5/10. obj1 is right; obj2 does not belong.", "8/10. Short, but it calls both objects seats without a word on the exclusion.",
		"- remove obj2: it is a couch, which the request excludes.")
	exCritBike = critique("3/10. The request asks for a bicycle and the map has none; obj4 is a backpack.", "3/10. obj4 only relates to cycling loosely.", "8/10. Clear.",
		"- answer with no objects: no object in the map is a bicycle.")
	exCritRinse = critique("6/10. obj3 is right.", "5/10. obj1, the refrigerator, could hold the cup once it is clean.", "8/10. Clear.",
		"- add obj1: the cup can go in the refrigerator after rinsing.")
)

// reflectExampleData cover what a review must catch and what it must
// leave alone: an excluded object kept, a right answer, objects where
// nothing serves, a right empty answer (which over-reflection spoils), a
// missing object, a misranked one, and an id the map does not have.
var reflectExampleData = []struct {
	m                       *scenes.SemanticMap
	query, answer, feedback string
}{
	{&exLivingRoom, "Find me a seat, but not the sofa.", exSeatWithCouch, exCritSeat},
	{&exKitchen, "Where can I get my vegetables cold?",
		answer(true, "Find something that keeps food cold.", "obj1, the refrigerator, keeps vegetables cold.", "obj1"),
		critique("10/10. The refrigerator is the only object that cools.", "10/10. Nothing is missing and nothing is extra.", "9/10. Short and clear.",
			"- keep the answer")},
	{&exBedroom, "Is there a bicycle here?", exBike, exCritBike},
	{&exLivingRoom, "Is there a TV near the couch?",
		answer(false, "Find a TV near the couch.", "The map has a couch but no TV."),
		critique("10/10. There is no TV in the map, so no object serves.", "10/10. The empty list is right; a chair or the table near the couch would not be a TV.", "9/10. Clear.",
			"- keep the answer")},
	{&exStudy, "Somewhere to put my notebook down",
		answer(true, "Find a surface to put a notebook on.", "obj1, the desk, has room for a notebook.", "obj1"),
		critique("7/10. The desk is right.", "5/10. obj4, the shelf, also takes a notebook and is missing.", "8/10. Clear.",
			"- add obj4: a shelf is a place to put a notebook down.")},
	{&exStudy, "Give me something to read",
		answer(true, "Find something to read.", "obj3 is a laptop, which can show a text; obj5 is a book.", "obj3", "obj5"),
		critique("8/10. Both objects can be read.", "5/10. A book is made for reading and should come before the laptop.", "8/10. Clear.",
			"- put obj5 first: a book serves reading better than a laptop.")},
	{&exBedroom, "Where can I keep my clothes?",
		answer(true, "Find storage for clothes.", "obj9 is a wardrobe, obj2 a cabinet and obj4 a backpack.", "obj9", "obj2", "obj4"),
		critique("3/10. There is no obj9 in the map.", "6/10. obj2 and obj4 store clothes, the cabinet best.", "6/10. It names a wardrobe the map does not have.",
			"- remove obj9: there is no object obj9 in the map.")},
}

// refineExampleData apply a right critique, a critique that empties an
// answer, and one that asks for an object that does not serve the
// request, which the revision declines.
var refineExampleData = []struct {
	m                                *scenes.SemanticMap
	query, answer, feedback, revised string
}{
	{&exLivingRoom, "Find me a seat, but not the sofa.", exSeatWithCouch, exCritSeat, exSeat},
	{&exBedroom, "Is there a bicycle here?", exBike, exCritBike, exNoBike},
	{&exKitchen, "Where can I rinse a cup?", exRinse, exCritRinse,
		answer(true, "Find somewhere to rinse a cup.", "obj3, the sink, is where a cup is rinsed; the refrigerator does not rinse anything, so it stays out.", "obj3")},
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
