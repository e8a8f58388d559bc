package scenes

import "slices"

// Rooms of a household. ALFWorld's scenes are one room each, of one of
// these four types; a [House] may hold several.
const (
	RoomKitchen    = "kitchen"
	RoomLivingRoom = "livingroom"
	RoomBedroom    = "bedroom"
	RoomBathroom   = "bathroom"
)

// HouseRooms returns the four room types in their fixed order.
func HouseRooms() []string {
	return []string{RoomKitchen, RoomLivingRoom, RoomBedroom, RoomBathroom}
}

// Kind is one row of the household knowledge table: a kind of receptacle or
// of object, where it is found and what can be done with it. The table is
// the single place that says which receptacles a room has, which objects go
// where, and which actions apply to what; the generator, the engine and the
// task generators all read it.
type Kind struct {
	Name       string
	Receptacle bool // a place objects are in or on; the agent goes to it
	// Openable receptacles of this kind may open and close; each
	// receptacle says whether it does ([Receptacle.Openable]), as in
	// ALFWorld, where some cabinets and drawers are open shelves.
	Openable bool

	Pickupable bool
	Heatable   bool // with a microwave
	Coolable   bool // with a fridge
	Cleanable  bool // with a sinkbasin
	Toggleable bool // a lamp: "use" turns it on and off

	// Receptacles: how many a room of each type has.
	Counts []RoomCount
	// Objects: the rooms they are found in, the receptacle kinds the
	// generator lays them in or on, and how many a room holds at most. For
	// an object that can be picked up, On is ALFWorld's rule of which
	// receptacles can hold it (see [CanContain]), so it is also where it
	// may be put; scenery that cannot be moved (a desklamp, a television)
	// has its own list.
	Rooms []string
	On    []string
	Max   int
	// Colors an instance may have; empty when colour says nothing of it.
	Colors []string
	// Owned objects belong to someone of the household.
	Owned bool
}

// RoomCount is how many receptacles of a kind a room type has: one of
// Choices, each as likely (a count listed twice is twice as likely).
type RoomCount struct {
	Room    string
	Choices []int
}

// Receptacle kinds that carry out the treatments.
const (
	KindMicrowave = "microwave"
	KindFridge    = "fridge"
	KindSinkBasin = "sinkbasin"
	KindDeskLamp  = "desklamp"
	KindFloorLamp = "floorlamp"
)

// Owners are the people of the household that owned objects belong to.
var owners = []string{"Alex", "Maria", "Sam", "Noor"}

// HouseOwners returns the people an owned object may belong to.
func HouseOwners() []string { return slices.Clone(owners) }

var (
	kitchen  = []string{RoomKitchen}
	living   = []string{RoomLivingRoom}
	bedroom  = []string{RoomBedroom}
	bathroom = []string{RoomBathroom}
	dry      = []string{RoomLivingRoom, RoomBedroom}

	palette = []string{"red", "blue", "green", "yellow", "white", "black"}
	fruit   = []string{"red", "green", "yellow"}
)

// rc says how many receptacles of a kind a room type has.
func rc(room string, choices ...int) RoomCount { return RoomCount{room, choices} }

// repeat is n copies of c, to weight a choice.
func repeat(c, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// kindTable is the knowledge table: ALFWorld's whole vocabulary of
// receptacles and objects (constants.py, OBJECTS and RECEPTACLES, in
// ALFWorld's lower-case spelling), plus the pineapple of its kitchens.
// Receptacles come first; the order of rows is the order in which the
// generator draws, so changing it changes every house.
//
// A receptacle's Counts are what the 18 rooms of the public ReAct
// transcripts hold: the kitchens' counts are those of its ten kitchens as
// they are; the other room types, with two or three rooms each, list the
// counts seen there and widen them by a few so that houses vary. A kind
// with no Counts is in the vocabulary, so a written-down house may have
// it, but the generator makes none.
var kindTable = []Kind{
	// Receptacles.
	{Name: "armchair", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 0, 1, 2), rc(RoomBedroom, 0, 0, 2)}},
	{Name: "bathtubbasin", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 0, 1, 1)}},
	{Name: "bed", Receptacle: true, Counts: []RoomCount{rc(RoomBedroom, 1)}},
	{Name: "cabinet", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 4, 4, 9, 10, 11, 12, 13, 13, 16, 20), rc(RoomLivingRoom, 0, 0, 2, 4), rc(RoomBathroom, 0, 2, 3, 4, 4)}},
	{Name: "cart", Receptacle: true},
	{Name: "coffeemachine", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1)}},
	{Name: "coffeetable", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 1, 1, 2)}},
	{Name: "countertop", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3), rc(RoomBedroom, 0, 0, 1), rc(RoomBathroom, 0, 1, 1)}},
	{Name: "desk", Receptacle: true, Counts: []RoomCount{rc(RoomBedroom, 0, 1, 1, 2)}},
	{Name: "diningtable", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 0, 0, 1, 1, 1, 1, 1, 1, 3, 3), rc(RoomLivingRoom, 0, 1, 1), rc(RoomBedroom, 0, 0, 1)}},
	{Name: "drawer", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1, 1, 1, 3, 3, 3, 5, 6, 9), rc(RoomLivingRoom, 1, 2, 4, 4), rc(RoomBedroom, 2, 3, 4, 6, 10), rc(RoomBathroom, 0, 0, 2, 4)}},
	{Name: "dresser", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 0, 1, 1), rc(RoomBedroom, 0, 1, 1), rc(RoomBathroom, 0, 0, 1)}},
	{Name: KindFridge, Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 1)}},
	{Name: "garbagecan", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1), rc(RoomLivingRoom, 1), rc(RoomBedroom, 1), rc(RoomBathroom, 1)}},
	{Name: "handtowelholder", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1, 1, 2)}},
	{Name: "laundryhamper", Receptacle: true, Counts: []RoomCount{rc(RoomBedroom, 0, 0, 1)}},
	{Name: KindMicrowave, Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 1)}},
	{Name: "ottoman", Receptacle: true},
	{Name: "paintinghanger", Receptacle: true},
	{Name: "safe", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, append(repeat(0, 9), 1)...), rc(RoomLivingRoom, 0, 1), rc(RoomBedroom, 0, 0, 1)}},
	{Name: "shelf", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3), rc(RoomLivingRoom, 0, 0, 3), rc(RoomBedroom, 0, 2, 4, 5, 9), rc(RoomBathroom, 0, 0, 3)}},
	{Name: "sidetable", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, append(repeat(0, 8), 1, 1)...), rc(RoomLivingRoom, 1, 2, 2), rc(RoomBedroom, 0, 1, 2)}},
	{Name: KindSinkBasin, Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1), rc(RoomBathroom, 1, 2, 2)}},
	{Name: "sofa", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 1)}},
	{Name: "stoveburner", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 4)}},
	{Name: "toaster", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1)}},
	{Name: "toilet", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1)}},
	{Name: "toiletpaperhanger", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1)}},
	{Name: "towelholder", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1)}},
	{Name: "tvstand", Receptacle: true},

	// Food: heated, cooled, and (the produce) cleaned.
	{Name: "apple", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 3, Colors: fruit},
	{Name: "bread", Pickupable: true, Heatable: true, Coolable: true, Rooms: kitchen, Max: 2},
	{Name: "egg", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "lettuce", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "potato", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "tomato", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 3},

	// Tableware and cookware.
	{Name: "bowl", Pickupable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBedroom}, Max: 3, Colors: palette},
	{Name: "cup", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 3, Colors: palette},
	{Name: "mug", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBedroom}, Max: 3, Colors: palette, Owned: true},
	{Name: "plate", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomLivingRoom}, Max: 3, Colors: palette},
	{Name: "pan", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "pot", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "kettle", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "winebottle", Pickupable: true, Coolable: true, Rooms: kitchen, Max: 2},
	{Name: "glassbottle", Pickupable: true, Rooms: kitchen, Max: 2},
	{Name: "butterknife", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "fork", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "knife", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "ladle", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 2},
	{Name: "spatula", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "spoon", Pickupable: true, Cleanable: true, Rooms: kitchen, Max: 3},
	{Name: "dishsponge", Pickupable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBathroom}, Max: 2, Colors: palette},
	{Name: "peppershaker", Pickupable: true, Rooms: kitchen, Max: 2},
	{Name: "saltshaker", Pickupable: true, Rooms: kitchen, Max: 2},

	// Things of the living room and the bedroom.
	{Name: "alarmclock", Pickupable: true, Rooms: bedroom, Max: 2, Colors: palette},
	{Name: "baseballbat", Pickupable: true, Rooms: bedroom, Max: 1},
	{Name: "basketball", Pickupable: true, Rooms: bedroom, Max: 1},
	{Name: "book", Pickupable: true, Rooms: dry, Max: 3, Colors: palette, Owned: true},
	{Name: "box", Pickupable: true, Rooms: living, Max: 2, Colors: palette},
	{Name: "cd", Pickupable: true, Rooms: bedroom, Max: 2, Owned: true},
	{Name: "cellphone", Pickupable: true, Rooms: dry, Max: 2, Colors: palette, Owned: true},
	{Name: "creditcard", Pickupable: true, Rooms: dry, Max: 2, Owned: true},
	{Name: "keychain", Pickupable: true, Rooms: dry, Max: 2, Owned: true},
	{Name: "laptop", Pickupable: true, Rooms: dry, Max: 2, Colors: palette, Owned: true},
	{Name: "newspaper", Pickupable: true, Rooms: living, Max: 2},
	{Name: "pen", Pickupable: true, Rooms: bedroom, Max: 3, Colors: palette},
	{Name: "pencil", Pickupable: true, Rooms: bedroom, Max: 3, Colors: palette},
	{Name: "pillow", Pickupable: true, Rooms: dry, Max: 2, Colors: palette, Owned: true},
	{Name: "remotecontrol", Pickupable: true, Rooms: living, Max: 2},
	{Name: "statue", Pickupable: true, Rooms: living, Max: 2, Colors: palette},
	{Name: "tennisracket", Pickupable: true, Rooms: bedroom, Max: 1},
	{Name: "vase", Pickupable: true, Rooms: dry, Max: 2, Colors: palette},
	{Name: "watch", Pickupable: true, Rooms: dry, Max: 2, Owned: true},
	{Name: "wateringcan", Pickupable: true, Rooms: living, Max: 1},

	// Things of the bathroom.
	{Name: "candle", Pickupable: true, Rooms: bathroom, Max: 2, Colors: palette},
	{Name: "cloth", Pickupable: true, Cleanable: true, Rooms: bathroom, Max: 2, Colors: palette},
	{Name: "handtowel", Pickupable: true, Rooms: bathroom, Max: 2, Colors: palette},
	{Name: "papertowel", Pickupable: true},
	{Name: "plunger", Pickupable: true, Rooms: bathroom, Max: 1},
	{Name: "soapbar", Pickupable: true, Cleanable: true, Rooms: bathroom, Max: 2, Colors: palette},
	{Name: "soapbottle", Pickupable: true, Rooms: []string{RoomKitchen, RoomBathroom}, Max: 2},
	{Name: "spraybottle", Pickupable: true, Rooms: bathroom, Max: 2},
	{Name: "tissuebox", Pickupable: true, Rooms: []string{RoomBathroom, RoomLivingRoom}, Max: 1},
	{Name: "toiletpaper", Pickupable: true, Rooms: bathroom, Max: 2},
	{Name: "toiletpaperroll", Pickupable: true},
	{Name: "towel", Pickupable: true, Rooms: bathroom, Max: 1, Colors: palette},

	// Lamps: not carried, switched with "use".
	{Name: KindDeskLamp, Toggleable: true, Rooms: dry, On: []string{"desk", "sidetable", "dresser"}, Max: 1},
	{Name: KindFloorLamp, Toggleable: true, Rooms: living, On: []string{"sidetable", "armchair", "sofa", "dresser"}, Max: 1},

	// Scenery: seen in ALFWorld's rooms, never picked up. Those with no
	// Rooms are in the vocabulary only.
	{Name: "houseplant", Rooms: []string{RoomKitchen, RoomLivingRoom}, On: []string{"countertop", "diningtable", "coffeetable", "sidetable"}, Max: 1},
	{Name: "papertowelroll", Rooms: kitchen, On: []string{"countertop", "diningtable"}, Max: 1},
	{Name: "pineapple", Rooms: kitchen, On: []string{"diningtable", "countertop"}, Max: 1},
	{Name: "television", Rooms: dry, On: []string{"dresser", "tvstand"}, Max: 1},
	{Name: "mirror", Rooms: []string{RoomBedroom, RoomBathroom}, On: []string{"countertop", "dresser"}, Max: 1},
	{Name: "bathtub"},
	{Name: "blinds"},
	{Name: "boots"},
	{Name: "chair"},
	{Name: "curtains"},
	{Name: "faucet"},
	{Name: "footstool"},
	{Name: "laundryhamperlid"},
	{Name: "lightswitch"},
	{Name: "painting"},
	{Name: "poster"},
	{Name: "scrubbrush"},
	{Name: "showerdoor"},
	{Name: "showerglass"},
	{Name: "sink"},
	{Name: "stoveknob"},
	{Name: "teddybear"},
	{Name: "window"},
}

// init gives every object that can be picked up ALFWorld's receptacles
// for it as the places it lies and may be put.
func init() {
	for i := range kindTable {
		k := &kindTable[i]
		if !k.Pickupable {
			continue
		}
		for _, r := range kindTable {
			if r.Receptacle && slices.Contains(canContain[r.Name], k.Name) {
				k.On = append(k.On, r.Name)
			}
		}
	}
}

// kindIndex maps a kind's name to its row; built once, read only.
var kindIndex = func() map[string]int {
	m := make(map[string]int, len(kindTable))
	for i, k := range kindTable {
		if _, dup := m[k.Name]; dup {
			panic("scenes: kind " + k.Name + " is in the knowledge table twice")
		}
		m[k.Name] = i
	}
	return m
}()

// Kinds returns the knowledge table, receptacles first, in its fixed order.
func Kinds() []Kind { return slices.Clone(kindTable) }

// KindOf returns the row of the knowledge table for a kind's name.
func KindOf(name string) (Kind, bool) {
	i, ok := kindIndex[name]
	if !ok {
		return Kind{}, false
	}
	return kindTable[i], true
}

// kindRef returns a pointer into the table, for callers in this package
// that must not copy rows in a hot loop.
func kindRef(name string) *Kind {
	if i, ok := kindIndex[name]; ok {
		return &kindTable[i]
	}
	return nil
}

// Fits reports whether an object kind may lie in or on a receptacle kind:
// where the generator lays it, which for an object that can be picked up
// is where ALFWorld lets it be put ([CanContain]).
func (k Kind) Fits(receptacle string) bool { return slices.Contains(k.On, receptacle) }

// CanContain reports whether ALFWorld lets an object of kind obj be put in
// or on a receptacle of kind rec (its canContain facts, from
// VAL_RECEPTACLE_OBJECTS).
func CanContain(rec, obj string) bool { return slices.Contains(canContain[rec], obj) }

// FoundIn reports whether an object kind is found in a room type.
func (k Kind) FoundIn(room string) bool { return slices.Contains(k.Rooms, room) }
