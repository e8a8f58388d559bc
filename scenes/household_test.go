package scenes_test

import (
	"cmp"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// The knowledge table holds together: receptacle rows say how many per
// room, object rows where they are found and in what, and every name an
// object row mentions is a receptacle kind some room of its own has.
func TestKindTable(t *testing.T) {
	kinds := scenes.Kinds()
	recs := map[string]scenes.Kind{}
	for _, k := range kinds {
		if k.Receptacle {
			recs[k.Name] = k
		}
	}
	for _, name := range []string{scenes.KindMicrowave, scenes.KindFridge, scenes.KindSinkBasin} {
		if _, ok := recs[name]; !ok {
			t.Errorf("treatment receptacle %s is not in the table", name)
		}
	}
	for _, k := range kinds {
		got, ok := scenes.KindOf(k.Name)
		if !ok || got.Name != k.Name {
			t.Errorf("KindOf(%q) = %v, %v", k.Name, got.Name, ok)
		}
		if k.Receptacle {
			if len(k.Rooms) != 0 || len(k.On) != 0 || k.Pickupable || k.Toggleable {
				t.Errorf("receptacle row %s mixes in object fields: %+v", k.Name, k)
			}
			for _, c := range k.Counts {
				if len(c.Choices) == 0 || slices.Min(c.Choices) < 0 || !slices.Contains(scenes.HouseRooms(), c.Room) {
					t.Errorf("receptacle %s: bad count %+v", k.Name, c)
				}
			}
			continue
		}
		if k.Openable || len(k.Counts) != 0 {
			t.Errorf("object row %s has receptacle fields: %+v", k.Name, k)
		}
		if len(k.Rooms) == 0 {
			if len(k.On) != 0 && !k.Pickupable || k.Max != 0 {
				t.Errorf("object %s is made nowhere but says where it lies or how many: %+v", k.Name, k)
			}
			continue
		}
		if len(k.On) == 0 || k.Max < 1 {
			t.Errorf("object row %s is made in %v but lies nowhere or never: %+v", k.Name, k.Rooms, k)
		}
		if k.Pickupable && k.Toggleable {
			t.Errorf("object %s: carried things are not lamps and lamps are not carried (%+v)", k.Name, k)
		}
		generated := false
		for _, on := range k.On {
			r, ok := recs[on]
			if !ok {
				t.Errorf("object %s lies on %q, which is no receptacle kind", k.Name, on)
				continue
			}
			if slices.ContainsFunc(r.Counts, func(c scenes.RoomCount) bool { return slices.Max(c.Choices) > 0 && k.FoundIn(c.Room) }) {
				generated = true
			}
		}
		if !generated {
			t.Errorf("object %s lies only on receptacles that none of its rooms %v has", k.Name, k.Rooms)
		}
	}
	if _, ok := scenes.KindOf("unicorn"); ok {
		t.Errorf("KindOf found a kind not in the table")
	}
	kinds[0].Name = "changed"
	if scenes.Kinds()[0].Name == "changed" {
		t.Errorf("Kinds returns the table itself; callers can change it")
	}
}

func TestGenerateHouseIsFixedBySeed(t *testing.T) {
	for _, room := range scenes.HouseRooms() {
		cfg := scenes.HouseConfig{Rooms: []string{room}}
		a, err := scenes.GenerateHouse(newRNG(5), cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := scenes.GenerateHouse(newRNG(5), cfg)
		c, _ := scenes.GenerateHouse(newRNG(6), cfg)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: seed 5 gave two houses", room)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 5 and 6 gave the same house; the seed is not used", room)
		}
	}
}

// Generated houses hold together and follow the table: receptacle counts
// per room, numbering from 1 without gaps, the listing order, location
// numbers, closed openables, items where their kind is found.
func TestGenerateHouse(t *testing.T) {
	configs := []struct {
		why string
		cfg scenes.HouseConfig
	}{
		{"no rooms means a kitchen", scenes.HouseConfig{}},
		{"each room alone", scenes.HouseConfig{Rooms: []string{scenes.RoomBathroom}}},
		{"a whole house numbers kinds across rooms", scenes.HouseConfig{Rooms: scenes.HouseRooms()}},
		{"required kinds are there", scenes.HouseConfig{Rooms: []string{scenes.RoomBedroom}, Require: []scenes.KindCount{{Kind: "pen", Min: 3}, {Kind: scenes.KindDeskLamp, Min: 1}}}},
		{"excluded kinds are not", scenes.HouseConfig{Rooms: []string{scenes.RoomKitchen}, Exclude: []string{"apple", "mug"}}},
	}
	for _, tc := range configs {
		t.Run(tc.why, func(t *testing.T) {
			for seed := range uint64(30) {
				h, err := scenes.GenerateHouse(newRNG(seed), tc.cfg)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				checkHouse(t, seed, h, tc.cfg)
			}
		})
	}
}

func checkHouse(t *testing.T, seed uint64, h *scenes.House, cfg scenes.HouseConfig) {
	t.Helper()
	if err := h.Validate(); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	rooms := cfg.Rooms
	if len(rooms) == 0 {
		rooms = []string{scenes.RoomKitchen}
	}
	if !slices.Equal(h.Rooms, rooms) || h.At != scenes.Nowhere || h.Held != scenes.Nowhere {
		t.Errorf("seed %d: rooms %v at %d held %d", seed, h.Rooms, h.At, h.Held)
	}
	// Counts per room and kind within the table's range.
	perRoom := map[[2]string]int{}
	for _, r := range h.Receptacles {
		perRoom[[2]string{r.Room, r.Kind}]++
		if r.Open {
			t.Errorf("seed %d: %s starts open", seed, r.Name)
		}
	}
	for _, k := range scenes.Kinds() {
		for _, c := range k.Counts {
			if !slices.Contains(rooms, c.Room) {
				continue
			}
			if n := perRoom[[2]string{c.Room, k.Name}]; !slices.Contains(c.Choices, n) {
				t.Errorf("seed %d: %d %s in the %s, want one of %v", seed, n, k.Name, c.Room, c.Choices)
			}
		}
	}
	// Listing order: kind, then number from the highest.
	if !slices.IsSortedFunc(h.Receptacles, func(a, b scenes.Receptacle) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return -cmp.Compare(number(a.Name), number(b.Name))
	}) {
		t.Errorf("seed %d: receptacles not listed by kind and falling number", seed)
	}
	// Places are numbered 1..n; only cabinets and drawers share one, with
	// the one of their kind numbered next.
	var locs []int
	for i, r := range h.Receptacles {
		if !slices.Contains(locs, r.Loc) {
			locs = append(locs, r.Loc)
		}
		for j, o := range h.Receptacles[:i] {
			if o.Loc == r.Loc && (o.Kind != r.Kind || number(o.Name) != number(r.Name)+1 && j == i-1 || r.Kind != "cabinet" && r.Kind != "drawer") {
				t.Errorf("seed %d: %s and %s share place %d", seed, o.Name, r.Name, r.Loc)
			}
		}
		if r.Openable {
			if k, _ := scenes.KindOf(r.Kind); !k.Openable {
				t.Errorf("seed %d: %s opens, but its kind does not", seed, r.Name)
			}
		}
	}
	slices.Sort(locs)
	for i, l := range locs {
		if l != i+1 {
			t.Errorf("seed %d: location numbers %v are not 1..%d", seed, locs, len(locs))
			break
		}
	}
	// Numbers run from 1 without gaps, per kind.
	nums := map[string][]int{}
	for _, r := range h.Receptacles {
		nums[r.Kind] = append(nums[r.Kind], number(r.Name))
	}
	for _, it := range h.Items {
		nums[it.Kind] = append(nums[it.Kind], number(it.Name))
	}
	for kind, ns := range nums {
		slices.Sort(ns)
		for i, n := range ns {
			if n != i+1 {
				t.Errorf("seed %d: %s numbered %v", seed, kind, ns)
				break
			}
		}
	}
	for _, it := range h.Items {
		k, _ := scenes.KindOf(it.Kind)
		r := h.Receptacles[it.In]
		if !k.FoundIn(r.Room) || !k.Fits(r.Kind) {
			t.Errorf("seed %d: %s is in %s in the %s, where its kind does not go", seed, it.Name, r.Name, r.Room)
		}
		if it.Hot || it.Cold || it.Clean || it.On {
			t.Errorf("seed %d: %s starts treated or on: %+v", seed, it.Name, it)
		}
		if (it.Color != "") != (len(k.Colors) > 0) || (it.Owner != "") != k.Owned {
			t.Errorf("seed %d: %s has colour %q and owner %q against its kind", seed, it.Name, it.Color, it.Owner)
		}
		if slices.Contains(cfg.Exclude, it.Kind) {
			t.Errorf("seed %d: excluded %s is there", seed, it.Name)
		}
	}
	for _, req := range cfg.Require {
		if n := len(h.ItemsOf(req.Kind)); n < req.Min {
			t.Errorf("seed %d: %d %s, required %d", seed, n, req.Kind, req.Min)
		}
	}
}

func number(name string) int {
	_, num, _ := strings.Cut(name, " ")
	n, _ := strconv.Atoi(num)
	return n
}

func TestGenerateHouseErrors(t *testing.T) {
	tests := []struct {
		why  string
		cfg  scenes.HouseConfig
		want string
	}{
		{"rooms are named exactly", scenes.HouseConfig{Rooms: []string{"garage"}}, `unknown room "garage"`},
		{"a room once", scenes.HouseConfig{Rooms: []string{scenes.RoomKitchen, scenes.RoomKitchen}}, "listed twice"},
		{"required kinds exist", scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "unicorn", Min: 1}}}, `"unicorn" is not in the knowledge table`},
		{"receptacles are not required", scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "fridge", Min: 1}}}, "is a receptacle"},
		{"required kinds belong to the rooms", scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "pillow", Min: 1}}}, "found in none of"},
		{"required and excluded at once", scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "apple", Min: 1}}, Exclude: []string{"apple"}}, "both required and excluded"},
		{"excluded kinds exist", scenes.HouseConfig{Exclude: []string{"unicorn"}}, `"unicorn" is not in the knowledge table`},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			_, err := scenes.GenerateHouse(newRNG(1), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestHouseValidate(t *testing.T) {
	base := func() *scenes.House {
		h, err := scenes.GenerateHouse(newRNG(2), scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "apple", Min: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tests := []struct {
		why    string
		mutate func(h *scenes.House)
		want   string
	}{
		{"receptacle kinds are receptacles", func(h *scenes.House) { h.Receptacles[0].Kind = "apple" }, "no receptacle kind"},
		{"names are kind and number", func(h *scenes.House) { h.Receptacles[0].Name = "cupboard 1" }, "want"},
		{"names are unique", func(h *scenes.House) { h.Items[1].Name = h.Items[0].Name; h.Items[1].Kind = h.Items[0].Kind }, "used twice"},
		{"only openables open", func(h *scenes.House) { i, _ := h.ReceptacleIndex("countertop 1"); h.Receptacles[i].Open = true }, "cannot be opened"},
		{"items are objects", func(h *scenes.House) { h.Items[0].Kind = "fridge" }, "no object kind"},
		{"an item nowhere must be held", func(h *scenes.House) { h.Items[0].In = scenes.Nowhere }, "not held"},
		{"a held item is nowhere else", func(h *scenes.House) { h.Held = 0 }, "held and in"},
		{"receptacle indices in range", func(h *scenes.House) { h.Items[0].In = len(h.Receptacles) }, "out of range"},
		{"not hot and cold at once", func(h *scenes.House) { h.Items[0].Hot, h.Items[0].Cold = true, true }, "hot and cold"},
		{"the agent stands somewhere real", func(h *scenes.House) { h.At = 999 }, "agent is at"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			h := base()
			tt.mutate(h)
			err := h.Validate()
			if !errors.Is(err, scenes.ErrHouse) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want ErrHouse containing %q", err, tt.want)
			}
		})
	}
}

func TestHouseEdits(t *testing.T) {
	h, err := scenes.GenerateHouse(newRNG(3), scenes.HouseConfig{Require: []scenes.KindCount{{Kind: "mug", Min: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	c := h.Clone()
	mugs := len(h.ItemsOf("mug"))
	i, err := h.AddItem("mug", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.Items[i].Name, "mug "+strconv.Itoa(mugs+1); got != want {
		t.Errorf("added item named %q, want %q", got, want)
	}
	if len(c.Items) == len(h.Items) {
		t.Errorf("Clone shares items with its original")
	}
	h.Held, h.Items[i].In = i, scenes.Nowhere
	h.RemoveItem(0)
	if h.Held != i-1 || h.Items[h.Held].Name != "mug "+strconv.Itoa(mugs+1) {
		t.Errorf("RemoveItem did not keep the held item: held %d", h.Held)
	}
	if err := h.Validate(); err != nil {
		t.Errorf("after edits: %v", err)
	}
	for _, bad := range []struct{ kind string }{{"unicorn"}, {"fridge"}} {
		if _, err := h.AddItem(bad.kind, 0); err == nil {
			t.Errorf("AddItem(%q) accepted", bad.kind)
		}
	}
	if _, err := h.AddItem("mug", -1); err == nil {
		t.Errorf("AddItem into receptacle -1 accepted")
	}
	f, _ := h.ReceptacleIndex("fridge 1")
	if !h.Closed(f) {
		t.Errorf("a new fridge is not closed")
	}
	h.Receptacles[f].Open = true
	if h.Closed(f) {
		t.Errorf("an open fridge is closed")
	}
}
