package mapqueries

import "github.com/ambibench/ambibench/scenes"

// Template is a built-in query with its structured reading, from which the
// ground truth is computed. scenes.ParseObjectQuery reads every Text back
// into its Request (a test holds it to that), so the reference agents,
// which see only the text, resolve the query the way the truth does.
type Template struct {
	Query
	Request scenes.ObjectQuery
}

type oq = scenes.ObjectQuery

// templates are the built-in queries, numbered as in the paper: 1–10
// descriptive, 11–20 affordance, 21–30 negation; within each, five easy
// then five difficult. Several have an empty truth on some maps (no
// bicycle, no microwave near an oven, nothing to sit on far from the TV in
// a one-room map), which is where an over-eager answer loses.
var templates = []Template{
	{Query{"query_01", "Is there a refrigerator?", TypeDescriptive, Easy}, oq{Classes: []string{"refrigerator"}}},
	{Query{"query_02", "Where is the bed?", TypeDescriptive, Easy}, oq{Classes: []string{"bed"}}},
	{Query{"query_03", "I am looking for a bicycle", TypeDescriptive, Easy}, oq{Classes: []string{"bicycle"}}},
	{Query{"query_04", "Where can I find a laptop?", TypeDescriptive, Easy}, oq{Classes: []string{"laptop"}}},
	{Query{"query_05", "Is there a toilet?", TypeDescriptive, Easy}, oq{Classes: []string{"toilet"}}},
	{Query{"query_06", "Is there a microwave close to an oven?", TypeDescriptive, Difficult}, oq{Classes: []string{"microwave"}, Relation: scenes.MapRelNear, Anchor: "oven"}},
	{Query{"query_07", "I need the book that is on a table", TypeDescriptive, Difficult}, oq{Classes: []string{"book"}, Relation: scenes.MapRelOn, Anchor: "dining table"}},
	{Query{"query_08", "A chair close to a desk", TypeDescriptive, Difficult}, oq{Classes: []string{"chair"}, Relation: scenes.MapRelNear, Anchor: "desk"}},
	{Query{"query_09", "Find the remote near the couch", TypeDescriptive, Difficult}, oq{Classes: []string{"remote"}, Relation: scenes.MapRelNear, Anchor: "couch"}},
	{Query{"query_10", "Is there a teddy bear on the bed?", TypeDescriptive, Difficult}, oq{Classes: []string{"teddy bear"}, Relation: scenes.MapRelOn, Anchor: "bed"}},

	{Query{"query_11", "I am tired, where can I sit?", TypeAffordance, Easy}, oq{Affordance: scenes.AffordSit}},
	{Query{"query_12", "What can I use to hold my coffee?", TypeAffordance, Easy}, oq{Affordance: scenes.AffordDrink}},
	{Query{"query_13", "Where can I wash my hands?", TypeAffordance, Easy}, oq{Affordance: scenes.AffordWash}},
	{Query{"query_14", "I want to heat up my lunch", TypeAffordance, Easy}, oq{Affordance: scenes.AffordHeat}},
	{Query{"query_15", "I need to keep my drinks cold", TypeAffordance, Easy}, oq{Affordance: scenes.AffordCool}},
	{Query{"query_16", "What could show me the weather forecast?", TypeAffordance, Difficult}, oq{Affordance: scenes.AffordInform}},
	{Query{"query_17", "I need to write notes during a meeting", TypeAffordance, Difficult}, oq{Affordance: scenes.AffordWrite}},
	{Query{"query_18", "Where can I put down a delicate object?", TypeAffordance, Difficult}, oq{Affordance: scenes.AffordPlace}},
	{Query{"query_19", "What can I sit on that is near a book?", TypeAffordance, Difficult}, oq{Affordance: scenes.AffordSit, Relation: scenes.MapRelNear, Anchor: "book"}},
	{Query{"query_20", "I would like to go out for some exercise", TypeAffordance, Difficult}, oq{Affordance: scenes.AffordExercise}},

	{Query{"query_21", "Tell me something to sit on that is not a chair", TypeNegation, Easy}, oq{Affordance: scenes.AffordSit, Exclude: []string{"chair"}}},
	{Query{"query_22", "Find somewhere to eat other than the table", TypeNegation, Easy}, oq{Affordance: scenes.AffordEat, Exclude: []string{"dining table"}}},
	{Query{"query_23", "Tell me something I can sit on that is not a couch", TypeNegation, Easy}, oq{Affordance: scenes.AffordSit, Exclude: []string{"couch"}}},
	{Query{"query_24", "Tell me something I can open that is not a refrigerator", TypeNegation, Easy}, oq{Affordance: scenes.AffordOpen, Exclude: []string{"refrigerator"}}},
	{Query{"query_25", "Something that is not at room temperature", TypeNegation, Easy}, oq{Affordance: scenes.AffordTemperature}},
	{Query{"query_26", "Something that makes sound but is not the TV", TypeNegation, Difficult}, oq{Affordance: scenes.AffordSound, Exclude: []string{"tv"}}},
	{Query{"query_27", "Something I can stand on to reach a high shelf that is not a chair", TypeNegation, Difficult}, oq{Affordance: scenes.AffordStand, Exclude: []string{"chair"}}},
	{Query{"query_28", "Find a storage item I can use that is not a backpack or a handbag", TypeNegation, Difficult}, oq{Affordance: scenes.AffordStore, Exclude: []string{"backpack", "handbag"}}},
	{Query{"query_29", "Somewhere to sit that is not near the TV", TypeNegation, Difficult}, oq{Affordance: scenes.AffordSit, Relation: scenes.MapRelFar, Anchor: "tv"}},
	{Query{"query_30", "Something where I can pour liquids that does not close", TypeNegation, Difficult}, oq{Affordance: scenes.AffordPour, ExcludeAffordance: scenes.AffordOpen}},
}

// Templates returns the built-in queries with their structured readings.
func Templates() []Template {
	out := make([]Template, len(templates))
	copy(out, templates)
	return out
}

// BuiltinQueries returns the built-in queries.
func BuiltinQueries() []Query {
	qs := make([]Query, len(templates))
	for i, t := range templates {
		qs[i] = t.Query
	}
	return qs
}
