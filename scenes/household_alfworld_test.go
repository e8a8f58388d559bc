package scenes_test

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// Every object and receptacle of ALFWorld's vocabulary is a kind of the
// table: OBJECTS (constants.py:136–245) and RECEPTACLES (constants.py:491),
// lower-cased as its text games write them, and what the ReAct transcripts'
// rooms show besides (a pineapple).
func TestVocabularyIsALFWorlds(t *testing.T) {
	objects := strings.Fields(`alarmclock apple armchair baseballbat basketball bathtub bathtubbasin bed blinds book
		boots bowl box bread butterknife cabinet candle cart cd cellphone chair cloth coffeemachine countertop
		creditcard cup curtains desk desklamp dishsponge drawer dresser egg floorlamp footstool fork fridge
		garbagecan glassbottle handtowel handtowelholder houseplant kettle keychain knife ladle laptop
		laundryhamper laundryhamperlid lettuce lightswitch microwave mirror mug newspaper ottoman painting pan
		papertowel papertowelroll pen pencil peppershaker pillow plate plunger poster pot potato remotecontrol
		safe saltshaker scrubbrush shelf showerdoor showerglass sink sinkbasin soapbar soapbottle sofa spatula
		spoon spraybottle statue stoveburner stoveknob diningtable coffeetable sidetable teddybear television
		tennisracket tissuebox toaster toilet toiletpaper toiletpaperhanger toiletpaperroll tomato towel
		towelholder tvstand vase watch wateringcan window winebottle paintinghanger pineapple`)
	for _, name := range objects {
		if _, ok := scenes.KindOf(name); !ok {
			t.Errorf("ALFWorld's %q is not in the knowledge table", name)
		}
	}
	// The static receptacles of RECEPTACLES (constants.py:491–530) are
	// receptacle kinds; its movable ones (constants.py:476) are objects
	// here, as nothing is put into them in ALFWorld's text games.
	for _, name := range strings.Fields(`armchair bathtubbasin bed cabinet cart coffeemachine coffeetable countertop desk
		diningtable drawer dresser fridge garbagecan handtowelholder laundryhamper microwave ottoman paintinghanger
		safe shelf sidetable sinkbasin sofa stoveburner toaster toilet toiletpaperhanger towelholder tvstand`) {
		if k, _ := scenes.KindOf(name); !k.Receptacle {
			t.Errorf("%s is no receptacle kind", name)
		}
	}
	for _, name := range strings.Fields("bowl box cup mug pan plate pot") {
		if k, _ := scenes.KindOf(name); k.Receptacle || !k.Pickupable || !scenes.MovableReceptacle(name) {
			t.Errorf("%s: want a movable receptacle carried as an object, got %+v", name, k)
		}
	}
}

// The kinds that may open are OPENABLE_CLASS_LIST (constants.py:1232),
// less the box, an object here; what can be heated, cooled, cleaned and
// switched is VAL_ACTION_OBJECTS (constants.py:1134–1199) without the
// sliced kinds.
func TestAffordancesAreALFWorlds(t *testing.T) {
	want := map[string][]string{
		"openable":   strings.Fields("cabinet drawer fridge microwave safe"),
		"heatable":   strings.Fields("apple bread cup egg mug plate potato tomato"),
		"coolable":   strings.Fields("apple bowl bread cup egg lettuce mug pan plate pot potato tomato winebottle"),
		"cleanable":  strings.Fields("apple bowl butterknife cloth cup dishsponge egg fork kettle knife ladle lettuce mug pan plate pot potato soapbar spatula spoon tomato"),
		"toggleable": strings.Fields("desklamp floorlamp"),
	}
	got := map[string][]string{}
	for _, k := range scenes.Kinds() {
		for flag, on := range map[string]bool{"openable": k.Openable, "heatable": k.Heatable, "coolable": k.Coolable, "cleanable": k.Cleanable, "toggleable": k.Toggleable} {
			if on {
				got[flag] = append(got[flag], k.Name)
			}
		}
	}
	for flag, names := range want {
		g := got[flag]
		slices.Sort(g)
		if !slices.Equal(g, names) {
			t.Errorf("%s kinds:\n got %v\nwant %v", flag, g, names)
		}
	}
}

// Which receptacle can hold what is ALFWorld's VAL_RECEPTACLE_OBJECTS;
// each row names the line its answer comes from.
func TestCanContainIsALFWorlds(t *testing.T) {
	for _, tc := range []struct {
		rec, obj string
		want     bool
		why      string
	}{
		{"desk", "apple", false, "constants.py:780, the desk's set has no apple"},
		{"desk", "pen", true, "constants.py:780"},
		{"diningtable", "apple", true, "constants.py:910 and 1127: TableTop's set is the diningtable's"},
		{"sidetable", "apple", true, "constants.py:1129"},
		{"coffeemachine", "mug", true, "constants.py:616, a mug and nothing else"},
		{"coffeemachine", "cup", false, "constants.py:616"},
		{"stoveburner", "pan", true, "constants.py:631"},
		{"stoveburner", "apple", false, "constants.py:631: kettle, pan and pot only"},
		{"toaster", "bread", false, "constants.py:1125: a toaster takes sliced bread only, and there is no slicing here"},
		{"fridge", "lettuce", true, "constants.py:634"},
		{"microwave", "lettuce", false, "constants.py:617"},
		{"laundryhamper", "cloth", true, "constants.py:779"},
		{"towelholder", "handtowel", false, "constants.py:833: towels only"},
		{"safe", "watch", true, "constants.py:1117"},
	} {
		if got := scenes.CanContain(tc.rec, tc.obj); got != tc.want {
			t.Errorf("CanContain(%s, %s) = %v, want %v (%s)", tc.rec, tc.obj, got, tc.want, tc.why)
		}
	}
	// An object that can be picked up lies only where it may be put.
	for _, k := range scenes.Kinds() {
		if !k.Pickupable {
			continue
		}
		for _, r := range k.On {
			if !scenes.CanContain(r, k.Name) {
				t.Errorf("%s lies on %s, which cannot contain it", k.Name, r)
			}
		}
	}
}

// The objects the ReAct transcripts' rooms show are all known kinds.
func TestTranscriptObjectsAreKinds(t *testing.T) {
	for _, name := range strings.Fields(`cloth soapbar soapbottle candle spraybottle lettuce mug potato tomato pineapple
		bowl bread cup peppershaker saltshaker butterknife dishsponge egg apple toiletpaper fork knife ladle pan
		spatula spoon kettle plate sink papertowelroll pot winebottle houseplant book glassbottle statue vase
		cellphone creditcard mirror pencil television box newspaper pillow remotecontrol keychain laptop alarmclock
		cd pen desklamp`) {
		if k, ok := scenes.KindOf(name); !ok || k.Receptacle {
			t.Errorf("the transcripts show a %s in a receptacle; the table has %+v, %v", name, k, ok)
		}
	}
}

// alfworldRooms reads the 18 rooms of the ReAct transcripts: each one's
// room type and its count of receptacles by kind.
func alfworldRooms(t *testing.T) (types []string, counts []map[string]int) {
	t.Helper()
	f, err := os.Open("testdata/alfworld_react_rooms.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := regexp.MustCompile(`a ([a-z]+) \d+`)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("testdata/alfworld_react_rooms.tsv:%d: want 3 tab-separated fields, got %d", n, len(fields))
		}
		c := map[string]int{}
		for _, m := range name.FindAllStringSubmatch(fields[2], -1) {
			c[m[1]]++
		}
		types, counts = append(types, fields[1]), append(counts, c)
	}
	return types, counts
}

// roomStats is what the note's side-by-side table shows of a set of rooms.
type roomStats struct {
	min, median, max                        int
	cabinets, drawers, shelves, diningtable int // the most in any room
}

func statsOf(counts []map[string]int) roomStats {
	var totals []int
	var s roomStats
	for _, c := range counts {
		n := 0
		for _, v := range c {
			n += v
		}
		totals = append(totals, n)
		s.cabinets, s.drawers = max(s.cabinets, c["cabinet"]), max(s.drawers, c["drawer"])
		s.shelves, s.diningtable = max(s.shelves, c["shelf"]), max(s.diningtable, c["diningtable"])
	}
	sort.Ints(totals)
	s.min, s.median, s.max = totals[0], totals[len(totals)/2], totals[len(totals)-1]
	return s
}

func (s roomStats) String() string {
	return fmt.Sprintf("%d–%d (median %d), cabinets ≤ %d, drawers ≤ %d, shelves ≤ %d, dining tables ≤ %d",
		s.min, s.max, s.median, s.cabinets, s.drawers, s.shelves, s.diningtable)
}

// Generated rooms are the size of ALFWorld's: drawn with the room types of
// the 18 transcript rooms, 50 houses each, their receptacle counts span
// the same range with the same median (within two), and reach the same
// largest counts of cabinets, drawers, shelves and dining tables.
func TestRoomSizesFollowALFWorld(t *testing.T) {
	types, real := alfworldRooms(t)
	if len(real) != 18 {
		t.Fatalf("%d transcript rooms, want 18", len(real))
	}
	var gen []map[string]int
	for i, room := range types {
		for seed := range uint64(50) {
			h, err := scenes.GenerateHouse(newRNG(uint64(i)*1000+seed), scenes.HouseConfig{Rooms: []string{room}})
			if err != nil {
				t.Fatal(err)
			}
			c := map[string]int{}
			for _, r := range h.Receptacles {
				c[r.Kind]++
			}
			gen = append(gen, c)
		}
	}
	r, g := statsOf(real), statsOf(gen)
	t.Logf("ALFWorld (18 rooms): %v", r)
	t.Logf("generated (%d):     %v", len(gen), g)
	if g.min > r.min+1 || g.max < r.max-1 || g.median < r.median-2 || g.median > r.median+2 {
		t.Errorf("room sizes %v, ALFWorld's %v", g, r)
	}
	if g.cabinets != r.cabinets || g.drawers != r.drawers || g.shelves != r.shelves || g.diningtable != r.diningtable {
		t.Errorf("largest counts %v, ALFWorld's %v", g, r)
	}
}
