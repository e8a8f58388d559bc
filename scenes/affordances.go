package scenes

import "slices"

// The semantic-map knowledge: the object classes a household map holds
// (COCO-style names as detectors give them, plus a few furniture classes),
// the words people use for them, and what each class affords. The
// built-in dataset's ground truth (tasks/mapqueries), the rules agent and the
// simulated model (through ParseObjectQuery and ResolveObjects) all read
// these tables, so that the reference answer and the references'
// reasoning cannot drift apart.

// MapClass is one class of the semantic-map vocabulary.
type MapClass struct {
	Name string
	// Words are the names of the class a query may use: the class name
	// first, then the project's own synonyms (never a dataset's query
	// phrases). A query matches a word or its plural; the longest match
	// wins ("dining table" before "table"). A word may name several
	// classes ("bag").
	Words []string
}

// Affordance is something a person may want to do with an object.
type Affordance struct {
	Name string
	// Words name the activity in a query, beyond Name: single words, the
	// verbs and nouns of doing it, written from what the affordance is
	// and not taken from any dataset's queries, so that the reading
	// generalises past one wording (TestWordingGeneralises measures it).
	// A query matches any inflection of a word (inflections).
	Words []string
	// Fits says how well each class serves it, in (0, 1]; the ranking of
	// an answer follows it. Classes not listed do not serve it.
	Fits []ClassFit
}

// ClassFit is how well a class serves an affordance.
type ClassFit struct {
	Class string
	Fit   float64
}

var mapClasses = []MapClass{
	{"backpack", []string{"backpack", "bag", "rucksack"}},
	{"bed", []string{"bed"}},
	{"bench", []string{"bench"}},
	{"bicycle", []string{"bicycle", "bike"}},
	{"book", []string{"book", "novel"}},
	{"bottle", []string{"bottle"}},
	{"bowl", []string{"bowl"}},
	{"cabinet", []string{"cabinet", "cupboard", "nightstand", "dresser"}},
	{"cell phone", []string{"cell phone", "cellphone", "phone", "smartphone", "mobile"}},
	{"chair", []string{"chair", "stool"}},
	{"clock", []string{"clock"}},
	{"couch", []string{"couch", "sofa"}},
	{"cup", []string{"cup", "mug"}},
	{"desk", []string{"desk"}},
	{"dining table", []string{"dining table", "table"}},
	{"handbag", []string{"handbag", "bag", "purse"}},
	{"keyboard", []string{"keyboard"}},
	{"lamp", []string{"lamp"}},
	{"laptop", []string{"laptop", "computer"}},
	{"microwave", []string{"microwave"}},
	{"mouse", []string{"mouse"}},
	{"oven", []string{"oven", "stove"}},
	{"potted plant", []string{"potted plant", "plant"}},
	{"refrigerator", []string{"refrigerator", "fridge"}},
	{"remote", []string{"remote", "remote control"}},
	{"shelf", []string{"shelf", "bookshelf", "bookcase"}},
	{"sink", []string{"sink", "basin"}},
	{"sports ball", []string{"sports ball", "ball"}},
	{"suitcase", []string{"suitcase", "luggage"}},
	{"teddy bear", []string{"teddy bear", "teddy"}},
	{"toaster", []string{"toaster"}},
	{"toilet", []string{"toilet"}},
	{"tv", []string{"tv", "television"}},
	{"umbrella", []string{"umbrella"}},
	{"vase", []string{"vase"}},
}

// Affordance names.
const (
	AffordSit         = "sit"
	AffordLie         = "lie"
	AffordEat         = "eat"
	AffordWrite       = "write"
	AffordDrink       = "drink"
	AffordStore       = "store"
	AffordOpen        = "open"
	AffordLight       = "light"
	AffordSound       = "sound"
	AffordInform      = "inform"
	AffordWash        = "wash"
	AffordHeat        = "heat"
	AffordCool        = "cool"
	AffordTemperature = "temperature" // hot or cold, not at room temperature
	AffordExercise    = "exercise"
	AffordRead        = "read"
	AffordStand       = "stand"
	AffordCarry       = "carry"
	AffordPour        = "pour"
	AffordPlace       = "place"
	AffordCall        = "call"
	AffordTime        = "time"
	AffordRain        = "rain"
	AffordPlay        = "play"
)

var affordances = []Affordance{
	{AffordSit, []string{"seat"},
		[]ClassFit{{"chair", 1}, {"couch", 1}, {"bench", 0.9}, {"bed", 0.6}}},
	{AffordLie, []string{"nap", "sleep", "recline"},
		[]ClassFit{{"bed", 1}, {"couch", 0.7}}},
	{AffordEat, []string{"dine", "meal", "dinner", "lunch", "breakfast"},
		[]ClassFit{{"dining table", 1}, {"desk", 0.6}}},
	{AffordWrite, []string{"study", "note"},
		[]ClassFit{{"desk", 1}, {"dining table", 0.8}, {"laptop", 0.6}}},
	{AffordDrink, []string{"sip", "beverage", "coffee", "tea", "juice"},
		[]ClassFit{{"cup", 1}, {"bottle", 0.6}, {"bowl", 0.3}}},
	{AffordStore, []string{"storage", "stow"},
		[]ClassFit{{"cabinet", 1}, {"shelf", 0.9}, {"suitcase", 0.8}, {"backpack", 0.7}, {"handbag", 0.6}}},
	// Opening and closing are one affordance: what closes opens.
	{AffordOpen, []string{"close", "shut", "door", "lid"},
		[]ClassFit{{"refrigerator", 1}, {"microwave", 1}, {"oven", 1}, {"cabinet", 1}, {"suitcase", 0.8}, {"laptop", 0.8}, {"book", 0.8}, {"backpack", 0.7}, {"handbag", 0.7}, {"umbrella", 0.6}}},
	{AffordLight, []string{"illuminate", "dark", "bright"},
		[]ClassFit{{"lamp", 1}, {"tv", 0.4}, {"laptop", 0.3}, {"cell phone", 0.3}}},
	{AffordSound, []string{"noise", "music", "audio", "loud"},
		[]ClassFit{{"tv", 1}, {"laptop", 0.8}, {"cell phone", 0.8}, {"clock", 0.4}}},
	{AffordInform, []string{"information", "news", "weather", "internet"},
		[]ClassFit{{"tv", 1}, {"laptop", 0.9}, {"cell phone", 0.9}}},
	{AffordWash, []string{"rinse", "clean", "scrub"},
		[]ClassFit{{"sink", 1}}},
	{AffordHeat, []string{"warm", "cook", "bake", "reheat", "toast"},
		[]ClassFit{{"microwave", 1}, {"oven", 0.9}, {"toaster", 0.7}}},
	{AffordCool, []string{"cold", "chill", "freeze", "refrigerate"},
		[]ClassFit{{"refrigerator", 1}}},
	{AffordTemperature, []string{"hot"},
		[]ClassFit{{"refrigerator", 1}, {"oven", 0.9}, {"microwave", 0.8}, {"toaster", 0.7}}},
	{AffordExercise, []string{"sport", "workout", "train"},
		[]ClassFit{{"bicycle", 1}, {"sports ball", 0.9}}},
	{AffordRead, nil,
		[]ClassFit{{"book", 1}, {"laptop", 0.5}, {"cell phone", 0.4}}},
	{AffordStand, []string{"climb", "step"},
		[]ClassFit{{"chair", 1}, {"bench", 0.9}, {"desk", 0.5}, {"dining table", 0.4}}},
	{AffordCarry, []string{"pack", "transport"},
		[]ClassFit{{"backpack", 1}, {"handbag", 0.9}, {"suitcase", 0.8}}},
	{AffordPour, []string{"liquid", "fluid", "water"},
		[]ClassFit{{"sink", 1}, {"cup", 0.8}, {"bowl", 0.8}, {"bottle", 0.6}, {"vase", 0.5}}},
	{AffordPlace, []string{"put", "set", "lay"},
		[]ClassFit{{"dining table", 1}, {"desk", 0.9}, {"shelf", 0.8}, {"cabinet", 0.7}}},
	{AffordCall, []string{"dial", "text"},
		[]ClassFit{{"cell phone", 1}, {"laptop", 0.5}}},
	{AffordTime, []string{"hour"},
		[]ClassFit{{"clock", 1}, {"cell phone", 0.6}, {"laptop", 0.4}}},
	{AffordRain, []string{"rainy", "dry"},
		[]ClassFit{{"umbrella", 1}}},
	{AffordPlay, []string{"toy", "game", "fun"},
		[]ClassFit{{"teddy bear", 1}, {"sports ball", 0.9}}},
}

// opposites name, for a few affordances, the state of not serving them:
// negated ("not at room temperature"), they ask for the affordance
// itself, which an ObjectQuery can say; unnegated they ask for its
// complement, which it cannot, and name nothing.
var opposites = map[string][]string{
	AffordTemperature: {"room temperature", "lukewarm", "tepid"},
}

// MapClasses returns the semantic-map class vocabulary, sorted by name.
func MapClasses() []MapClass {
	out := slices.Clone(mapClasses)
	for i := range out {
		out[i].Words = slices.Clone(out[i].Words)
	}
	return out
}

// Affordances returns the affordance table.
func Affordances() []Affordance {
	out := slices.Clone(affordances)
	for i := range out {
		out[i].Words = slices.Clone(out[i].Words)
		out[i].Fits = slices.Clone(out[i].Fits)
	}
	return out
}

// AffordanceFit is how well class serves the affordance, 0 when it does not
// (or the affordance is unknown).
func AffordanceFit(affordance, class string) float64 {
	for _, a := range affordances {
		if a.Name != affordance {
			continue
		}
		for _, f := range a.Fits {
			if f.Class == class {
				return f.Fit
			}
		}
		return 0
	}
	return 0
}

// IsMapClass reports whether name is a class of the vocabulary.
func IsMapClass(name string) bool {
	return slices.ContainsFunc(mapClasses, func(c MapClass) bool { return c.Name == name })
}
