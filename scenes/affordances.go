package scenes

import "slices"

// The semantic-map knowledge: the object classes a household map holds
// (COCO-style names as detectors give them, plus a few furniture classes),
// the words people use for them, and what each class affords. The
// built-in dataset's ground truth (tasks/semmap), the rules agent and the
// simulated model (agents/semquery) all read these tables, so that the
// reference answer and the references' reasoning cannot drift apart.

// MapClass is one class of the semantic-map vocabulary.
type MapClass struct {
	Name string
	// Words are the phrases that name it in a query, longest wins
	// ("dining table" before "table"). A phrase may name several classes
	// ("bag").
	Words []string
}

// Affordance is something a person may want to do with an object.
type Affordance struct {
	Name string
	// Phrases trigger it in a query ("where can I sit").
	Phrases []string
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
	{"cabinet", []string{"cabinet", "cupboard", "counter", "nightstand"}},
	{"cell phone", []string{"cell phone", "cellphone", "phone", "mobile phone", "smartphone"}},
	{"chair", []string{"chair"}},
	{"clock", []string{"clock"}},
	{"couch", []string{"couch", "sofa"}},
	{"cup", []string{"cup", "mug"}},
	{"desk", []string{"desk"}},
	{"dining table", []string{"dining table", "table", "kitchen table"}},
	{"handbag", []string{"handbag", "bag", "purse"}},
	{"keyboard", []string{"keyboard"}},
	{"lamp", []string{"lamp", "table lamp", "floor lamp", "desk lamp"}},
	{"laptop", []string{"laptop", "computer", "notebook computer"}},
	{"microwave", []string{"microwave", "microwave oven"}},
	{"mouse", []string{"mouse", "computer mouse"}},
	{"oven", []string{"oven", "stove"}},
	{"potted plant", []string{"potted plant", "plant"}},
	{"refrigerator", []string{"refrigerator", "fridge"}},
	{"remote", []string{"remote", "remote control"}},
	{"shelf", []string{"shelf", "bookshelf", "shelves"}},
	{"sink", []string{"sink", "kitchen sink", "washbasin"}},
	{"sports ball", []string{"sports ball", "ball"}},
	{"suitcase", []string{"suitcase", "luggage"}},
	{"teddy bear", []string{"teddy bear", "teddy"}},
	{"toaster", []string{"toaster"}},
	{"toilet", []string{"toilet"}},
	{"tv", []string{"tv", "television", "tv screen"}},
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
	AffordTemperature = "temperature"
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
	{AffordSit, []string{"sit", "sit down", "take a seat", "have a seat", "seat"},
		[]ClassFit{{"chair", 1}, {"couch", 1}, {"bench", 0.9}, {"bed", 0.6}}},
	{AffordLie, []string{"lie down", "lie", "nap", "sleep", "take a nap"},
		[]ClassFit{{"bed", 1}, {"couch", 0.7}}},
	{AffordEat, []string{"eat", "have dinner", "have lunch", "have a meal"},
		[]ClassFit{{"dining table", 1}, {"desk", 0.6}}},
	{AffordWrite, []string{"write", "write notes", "take notes", "work"},
		[]ClassFit{{"desk", 1}, {"dining table", 0.8}, {"laptop", 0.6}}},
	{AffordDrink, []string{"hold my coffee", "drink", "drink from", "coffee", "tea"},
		[]ClassFit{{"cup", 1}, {"bottle", 0.6}, {"bowl", 0.3}}},
	{AffordStore, []string{"store", "storage", "keep my things", "put away"},
		[]ClassFit{{"cabinet", 1}, {"shelf", 0.9}, {"suitcase", 0.8}, {"backpack", 0.7}, {"handbag", 0.6}}},
	{AffordOpen, []string{"open", "close", "can be opened", "has a door", "has a lid"},
		[]ClassFit{{"refrigerator", 1}, {"microwave", 1}, {"oven", 1}, {"cabinet", 1}, {"suitcase", 0.8}, {"laptop", 0.8}, {"book", 0.8}, {"backpack", 0.7}, {"handbag", 0.7}, {"umbrella", 0.6}}},
	{AffordLight, []string{"light", "gives light", "provides light", "illuminate", "too dark"},
		[]ClassFit{{"lamp", 1}, {"tv", 0.4}, {"laptop", 0.3}, {"cell phone", 0.3}}},
	{AffordSound, []string{"sound", "makes sound", "emits sound", "music", "noise"},
		[]ClassFit{{"tv", 1}, {"laptop", 0.8}, {"cell phone", 0.8}, {"clock", 0.4}}},
	{AffordInform, []string{"weather forecast", "weather", "news", "look something up"},
		[]ClassFit{{"tv", 1}, {"laptop", 0.9}, {"cell phone", 0.9}}},
	{AffordWash, []string{"wash", "wash my hands", "dirty dishes", "rinse", "brush my teeth", "oral hygiene"},
		[]ClassFit{{"sink", 1}}},
	{AffordHeat, []string{"heat", "heat up", "warm up", "cook", "bake", "toast"},
		[]ClassFit{{"microwave", 1}, {"oven", 0.9}, {"toaster", 0.7}}},
	{AffordCool, []string{"keep my drinks cold", "cold", "chill", "cool", "keep cold"},
		[]ClassFit{{"refrigerator", 1}}},
	{AffordTemperature, []string{"not at room temperature", "hot or cold", "hot", "warm or cold"},
		[]ClassFit{{"refrigerator", 1}, {"oven", 0.9}, {"microwave", 0.8}, {"toaster", 0.7}}},
	{AffordExercise, []string{"exercise", "work out", "do some sport", "play sport"},
		[]ClassFit{{"bicycle", 1}, {"sports ball", 0.9}}},
	{AffordRead, []string{"read", "something to read"},
		[]ClassFit{{"book", 1}, {"laptop", 0.5}, {"cell phone", 0.4}}},
	{AffordStand, []string{"stand on", "climb", "reach a high shelf", "step on"},
		[]ClassFit{{"chair", 1}, {"bench", 0.9}, {"desk", 0.5}, {"dining table", 0.4}}},
	{AffordCarry, []string{"carry", "carry my things", "pack"},
		[]ClassFit{{"backpack", 1}, {"handbag", 0.9}, {"suitcase", 0.8}}},
	{AffordPour, []string{"pour", "pour liquids", "deposit liquids", "liquid", "liquids"},
		[]ClassFit{{"sink", 1}, {"cup", 0.8}, {"bowl", 0.8}, {"bottle", 0.6}, {"vase", 0.5}}},
	{AffordPlace, []string{"put down", "place", "set down", "leave", "drop"},
		[]ClassFit{{"dining table", 1}, {"desk", 0.9}, {"shelf", 0.8}, {"cabinet", 0.7}}},
	{AffordCall, []string{"call", "make a call", "phone call", "text"},
		[]ClassFit{{"cell phone", 1}, {"laptop", 0.5}}},
	{AffordTime, []string{"what time", "the time", "tell the time"},
		[]ClassFit{{"clock", 1}, {"cell phone", 0.6}, {"laptop", 0.4}}},
	{AffordRain, []string{"rain", "stay dry"},
		[]ClassFit{{"umbrella", 1}}},
	{AffordPlay, []string{"play", "toy", "entertain a child"},
		[]ClassFit{{"teddy bear", 1}, {"sports ball", 0.9}}},
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
		out[i].Phrases = slices.Clone(out[i].Phrases)
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
