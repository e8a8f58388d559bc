package housework

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseInstruction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, in string
		want    Task
	}{
		{"ALFWorld's put", "put a mug in coffeemachine.", Task{Type: TypePickAndPlace, Kind: "mug", Count: 1, Dest: "coffeemachine"}},
		{"some and on", "put some spraybottle on toilet.", Task{Type: TypePickAndPlace, Kind: "spraybottle", Count: 1, Dest: "toilet"}},
		{"the task line of an opening, capitals and spaces", "Your task is to:  Put a Mug in CoffeeMachine.", Task{Type: TypePickAndPlace, Kind: "mug", Count: 1, Dest: "coffeemachine"}},
		{"definite: one in particular", "put that mug in coffeemachine.", Task{Type: TypePickAndPlace, Kind: "mug", Count: 1, Dest: "coffeemachine", Definite: true}},
		{"ALFWorld's own the means any one (goal_library.py:195)", "examine the pen with the desklamp.", Task{Type: TypeLookAtObjInLight, Kind: "pen", Count: 1, Lamp: "desklamp"}},
		{"ALFWorld's bare kind (goal_library.py:194)", "look at bowl under the desklamp.", Task{Type: TypeLookAtObjInLight, Kind: "bowl", Count: 1, Lamp: "desklamp"}},
		{"vague put", "put something on diningtable.", Task{Type: TypePickAndPlace, Count: 1, Dest: "diningtable", Vague: true}},
		{"look, under", "look at a book under the desklamp.", Task{Type: TypeLookAtObjInLight, Kind: "book", Count: 1, Lamp: "desklamp"}},
		{"look, examine with", "examine that alarmclock with the floorlamp.", Task{Type: TypeLookAtObjInLight, Kind: "alarmclock", Count: 1, Lamp: "floorlamp", Definite: true}},
		{"look, vague", "look at something under the desklamp.", Task{Type: TypeLookAtObjInLight, Count: 1, Lamp: "desklamp", Vague: true}},
		{"clean adjective", "put a clean cloth in countertop.", Task{Type: TypePickCleanThenPlace, Kind: "cloth", Count: 1, State: StateClean, Dest: "countertop"}},
		{"clean verb", "clean some lettuce and put it in fridge.", Task{Type: TypePickCleanThenPlace, Kind: "lettuce", Count: 1, State: StateClean, Dest: "fridge"}},
		{"heat verb, definite", "heat that egg and put it in fridge.", Task{Type: TypePickHeatThenPlace, Kind: "egg", Count: 1, State: StateHot, Dest: "fridge", Definite: true}},
		{"hot, vague", "put something hot in countertop.", Task{Type: TypePickHeatThenPlace, Count: 1, State: StateHot, Dest: "countertop", Vague: true}},
		{"cool adjective", "put a cool tomato in countertop.", Task{Type: TypePickCoolThenPlace, Kind: "tomato", Count: 1, State: StateCold, Dest: "countertop"}},
		{"cool verb, vague", "cool something and put it in diningtable.", Task{Type: TypePickCoolThenPlace, Count: 1, State: StateCold, Dest: "diningtable", Vague: true}},
		{"two, singular kind as ALFWorld writes it", "put two pen in drawer.", Task{Type: TypePickTwoObjAndPlace, Kind: "pen", Count: 2, Dest: "drawer"}},
		{"two, plural kind", "put two knives in drawer.", Task{Type: TypePickTwoObjAndPlace, Kind: "knife", Count: 2, Dest: "drawer"}},
		{"find two", "find two soapbar and put them in cabinet.", Task{Type: TypePickTwoObjAndPlace, Kind: "soapbar", Count: 2, Dest: "cabinet"}},
		{"two things of one kind", "put two things of one kind in drawer.", Task{Type: TypePickTwoObjAndPlace, Count: 2, Dest: "drawer", Vague: true}},
		{"find two things", "find two things of one kind and put them in sofa.", Task{Type: TypePickTwoObjAndPlace, Count: 2, Dest: "sofa", Vague: true}},
		{"two words for a kind", "put a butter knife in drawer.", Task{Type: TypePickAndPlace, Kind: "butterknife", Count: 1, Dest: "drawer"}},
	} {
		got, err := ParseInstruction(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: ParseInstruction(%q) = %+v, %v; want %+v", tc.why, tc.in, got, err, tc.want)
		}
	}
}

func TestParseInstructionErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ why, in, want string }{
		{"nothing", "  ", "empty"},
		{"no destination", "put a mug.", "no destination"},
		{"unknown form", "dance with the mug.", "unknown task form"},
		{"no lamp", "look at a book.", "no lamp"},
		{"no kind after the article", "put a in fridge.", "no object kind"},
		{"treatment without the put", "heat some egg.", "and put it in"},
	} {
		_, err := ParseInstruction(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), strings.TrimSpace(tc.in)) {
			t.Errorf("%s: ParseInstruction(%q) error %v; want one quoting the input and saying %q", tc.why, tc.in, err, tc.want)
		}
	}
}

func TestKindAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, in, not string
		kind         string
		count        int
		ok           bool
	}{
		{"the user's underspecified answer", "I mean an apple.", "", "apple", 1, true},
		{"two, in the plural", "I mean two apples.", "", "apple", 2, true},
		{"an irregular plural", "Two knives, please.", "", "knife", 2, true},
		{"absence names the absent kind first", "There is no apple here. Use a tomato instead.", "apple", "tomato", 1, true},
		{"absence, two", "There is no pen here. Use two pencils instead.", "pen", "pencil", 2, true},
		{"a kind in two words", "I mean a butter knife.", "", "butterknife", 1, true},
		{"no kind at all", "I do not know.", "", "", 1, false},
		{"a receptacle is not an object", "The fridge.", "", "", 1, false},
	} {
		kind, count, ok := KindAnswer(tc.in, tc.not)
		if kind != tc.kind || count != tc.count || ok != tc.ok {
			t.Errorf("%s: KindAnswer(%q, %q) = %q, %d, %v; want %q, %d, %v", tc.why, tc.in, tc.not, kind, count, ok, tc.kind, tc.count, tc.ok)
		}
	}
}

func TestWhichAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, in string
		want    Which
		ok      bool
	}{
		{"by name", "I mean the mug 2.", Which{Item: "mug 2"}, true},
		{"by colour", "I mean the red one.", Which{Color: "red"}, true},
		{"by owner, the user's words", "I mean the one that belongs to Sam.", Which{Owner: "sam"}, true},
		{"by owner, possessive", "Sam's.", Which{Owner: "sam"}, true},
		{"nothing to go by", "That one.", Which{}, false},
		{"it's is not an owner", "It's the blue one.", Which{Color: "blue"}, true},
	} {
		got, ok := WhichAnswer(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: WhichAnswer(%q) = %+v, %v; want %+v, %v", tc.why, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

const opening = "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a drawer 1, a fridge 1, a microwave 1, and a sinkbasin 1.\n\nYour task is to: put a hot apple in fridge."

func TestBelief(t *testing.T) {
	t.Parallel()
	type step struct{ cmd, obs string }
	for _, tc := range []struct {
		why   string
		steps []step
		check func(b *Belief) bool
	}{
		{"the opening lists the receptacles in order", nil, func(b *Belief) bool {
			return len(b.Receptacles) == 6 && b.Receptacles[0].Name == "cabinet 1" && b.Receptacles[5].Kind == "sinkbasin" && b.At == Nowhere
		}},
		{"a v0.3 arrival takes its place from the command", []step{{"go to countertop 1", "You arrive at loc 3. On the countertop 1, you see a apple 1, and a mug 2."}}, func(b *Belief) bool {
			a, _ := b.Item("apple 1")
			c, _ := b.Receptacle("countertop 1")
			return b.At == c && b.Items[a].In == c && b.Receptacles[c].Explored && len(b.Items) == 2
		}},
		{"a v0.4 arrival names it, and says which grammar", []step{{"", "You arrive at fridge 1. The fridge 1 is closed."}}, func(b *Belief) bool {
			f, _ := b.Receptacle("fridge 1")
			r := b.Receptacles[f]
			return b.At == f && r.Closed && r.Opens && !r.Explored && b.V04
		}},
		{"opening shows the contents", []step{{"go to fridge 1", "You arrive at loc 1. The fridge 1 is closed."}, {"open fridge 1", "You open the fridge 1. The fridge 1 is open. In it, you see a egg 1, and a potato 2."}}, func(b *Belief) bool {
			f, _ := b.Receptacle("fridge 1")
			e, _ := b.Item("potato 2")
			return b.Receptacles[f].Explored && !b.Receptacles[f].Closed && b.Items[e].In == f
		}},
		{"take, heat and put", []step{
			{"go to countertop 1", "You arrive at loc 3. On the countertop 1, you see a apple 1."},
			{"take apple 1 from countertop 1", "You pick up the apple 1 from the countertop 1."},
			{"go to microwave 1", "You arrive at loc 5. The microwave 1 is closed."},
			{"heat apple 1 with microwave 1", "You heat the apple 1 using the microwave 1."},
			{"go to sinkbasin 1", "You arrive at loc 6. On the sinkbasin 1, you see nothing."},
			{"put apple 1 in/on sinkbasin 1", "You put the apple 1 in/on the sinkbasin 1."},
		}, func(b *Belief) bool {
			a, _ := b.Item("apple 1")
			s, _ := b.Receptacle("sinkbasin 1")
			return b.Held == Nowhere && b.Items[a].In == s && b.Items[a].Hot && !b.Items[a].Cold
		}},
		{"a failure changes nothing", []step{{"take apple 1 from countertop 1", "Nothing happens."}}, func(b *Belief) bool {
			return len(b.Items) == 0 && b.Held == Nowhere
		}},
		{"examining tells state; describing, colour and owner", []step{{"examine mug 2", "This is a hot and clean mug 2."}, {"describe mug 2", "The mug 2 is green. It belongs to Sam."}}, func(b *Belief) bool {
			m, _ := b.Item("mug 2")
			it := b.Items[m]
			return it.Examined && it.Hot && it.Clean && !it.Cold && it.Color == "green" && it.Owner == "Sam"
		}},
		{"facing two receptacles puts them at one place, as ALFWorld's look-variations say", []step{
			{"go to cabinet 1", "You arrive at loc 3. The cabinet 1 is closed."},
			{"go to cabinet 2", "Nothing happens."},
			{"look", "You are facing the cabinet 2, and cabinet 1. Next to it, you see nothing."},
		}, func(b *Belief) bool {
			c1, _ := b.Receptacle("cabinet 1")
			c2, _ := b.Receptacle("cabinet 2")
			return b.At == c1 && b.samePlace(c1, c2) && b.Receptacles[c2].Place == 3
		}},
		{"a lamp switched on", []step{{"use desklamp 1", "You turn on the desklamp 1."}}, func(b *Belief) bool {
			l, ok := b.Item("desklamp 1")
			return ok && b.Items[l].On
		}},
		{"relisting a receptacle forgets what left it unseen", []step{
			{"go to countertop 1", "You arrive at loc 3. On the countertop 1, you see a apple 1."},
			{"examine countertop 1", "On the countertop 1, you see nothing."},
		}, func(b *Belief) bool {
			a, _ := b.Item("apple 1")
			return b.Items[a].In == Nowhere && b.Held != a
		}},
	} {
		b := NewBelief(opening)
		for _, s := range tc.steps {
			b.Observe(s.cmd, s.obs)
		}
		if !tc.check(b) {
			t.Errorf("%s: belief %+v", tc.why, b)
		}
	}
}

func TestObserveEffect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, cmd, obs string
		want          Effect
	}{
		{"silent failure", "open cabinet 9", "Nothing happens.", Effect{}},
		{"explained failure", "open cabinet 1", "You are not at the cabinet 1; go to it first.", Effect{}},
		{"a thought", "think: where is it?", "OK.", Effect{Understood: true}},
		{"an arrival changes where the agent is", "go to cabinet 1", "You arrive at loc 4. The cabinet 1 is closed.", Effect{Understood: true, Changed: true}},
		{"examining changes nothing", "examine apple 1", "This is a hot apple 1.", Effect{Understood: true}},
	} {
		b := NewBelief(opening)
		if got := b.Observe(tc.cmd, tc.obs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Observe(%q, %q) = %+v, want %+v", tc.why, tc.cmd, tc.obs, got, tc.want)
		}
	}
}
