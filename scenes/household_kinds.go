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
	Openable   bool // a receptacle that starts closed and must be opened

	Pickupable bool
	Heatable   bool // with a microwave
	Coolable   bool // with a fridge
	Cleanable  bool // with a sinkbasin
	Toggleable bool // a lamp: "use" turns it on and off

	// Receptacles: how many a room of each type has.
	Counts []RoomCount
	// Objects: the rooms they are found in, the receptacle kinds they lie
	// in or on (which are also the plausible places to put them), and how
	// many a room holds at most.
	Rooms []string
	On    []string
	Max   int
	// Colors an instance may have; empty when colour says nothing of it.
	Colors []string
	// Owned objects belong to someone of the household.
	Owned bool
}

// RoomCount is how many receptacles of a kind a room type has, drawn
// uniformly from [Min, Max].
type RoomCount struct {
	Room     string
	Min, Max int
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

	tableware = []string{"countertop", "cabinet", "shelf", "diningtable", "sinkbasin", "fridge", "microwave"}
	food      = []string{"countertop", "diningtable", "fridge", "microwave", "sinkbasin", "garbagecan"}
	cutlery   = []string{"countertop", "drawer", "diningtable", "sinkbasin"}
	smallDry  = []string{"desk", "sidetable", "dresser", "shelf", "drawer", "coffeetable", "diningtable", "safe"}
	softDry   = []string{"bed", "sofa", "armchair"}
	bathShelf = []string{"countertop", "cabinet", "shelf", "toilet"}
)

func rc(room string, min, max int) RoomCount { return RoomCount{room, min, max} }

// kindTable is the knowledge table. Receptacles come first; the order of
// rows is the order in which the generator draws, so changing it changes
// every house.
var kindTable = []Kind{
	// Receptacles.
	{Name: "armchair", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 0, 2), rc(RoomBedroom, 0, 1)}},
	{Name: "bathtubbasin", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 0, 1)}},
	{Name: "bed", Receptacle: true, Counts: []RoomCount{rc(RoomBedroom, 1, 1)}},
	{Name: "cabinet", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 4, 10), rc(RoomLivingRoom, 0, 4), rc(RoomBathroom, 2, 4)}},
	{Name: "coffeemachine", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1)}},
	{Name: "coffeetable", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 1, 2)}},
	{Name: "countertop", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 3), rc(RoomBathroom, 1, 1)}},
	{Name: "desk", Receptacle: true, Counts: []RoomCount{rc(RoomBedroom, 0, 2)}},
	{Name: "diningtable", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 0, 1), rc(RoomLivingRoom, 0, 1)}},
	{Name: "drawer", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 2, 6), rc(RoomLivingRoom, 1, 4), rc(RoomBedroom, 2, 6), rc(RoomBathroom, 0, 4)}},
	{Name: "dresser", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 0, 1), rc(RoomBedroom, 0, 1)}},
	{Name: KindFridge, Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1)}},
	{Name: "garbagecan", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1), rc(RoomLivingRoom, 1, 1), rc(RoomBedroom, 1, 1), rc(RoomBathroom, 1, 1)}},
	{Name: "handtowelholder", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 0, 2)}},
	{Name: KindMicrowave, Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1)}},
	{Name: "safe", Receptacle: true, Openable: true, Counts: []RoomCount{rc(RoomLivingRoom, 0, 1), rc(RoomBedroom, 0, 1)}},
	{Name: "shelf", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 0, 3), rc(RoomLivingRoom, 0, 3), rc(RoomBedroom, 0, 4), rc(RoomBathroom, 0, 2)}},
	{Name: "sidetable", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 1, 2), rc(RoomBedroom, 1, 2)}},
	{Name: KindSinkBasin, Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1), rc(RoomBathroom, 1, 2)}},
	{Name: "sofa", Receptacle: true, Counts: []RoomCount{rc(RoomLivingRoom, 1, 1)}},
	{Name: "stoveburner", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 2, 4)}},
	{Name: "toaster", Receptacle: true, Counts: []RoomCount{rc(RoomKitchen, 1, 1)}},
	{Name: "toilet", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1, 1)}},
	{Name: "toiletpaperhanger", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 1, 1)}},
	{Name: "towelholder", Receptacle: true, Counts: []RoomCount{rc(RoomBathroom, 0, 1)}},

	// Food: heated, cooled, and (the produce) cleaned.
	{Name: "apple", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: food, Max: 3, Colors: fruit},
	{Name: "bread", Pickupable: true, Heatable: true, Coolable: true, Rooms: kitchen, On: []string{"countertop", "diningtable", "fridge", "microwave", "toaster"}, Max: 2},
	{Name: "egg", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: food, Max: 3},
	{Name: "lettuce", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: []string{"countertop", "diningtable", "fridge", "sinkbasin"}, Max: 2},
	{Name: "potato", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: food, Max: 3},
	{Name: "tomato", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: food, Max: 3},

	// Tableware and cookware.
	{Name: "bowl", Pickupable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBedroom}, On: append([]string{"desk", "sidetable", "dresser"}, tableware...), Max: 3, Colors: palette},
	{Name: "cup", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: tableware, Max: 3, Colors: palette},
	{Name: "mug", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBedroom}, On: append([]string{"coffeemachine", "desk", "sidetable"}, tableware...), Max: 3, Colors: palette, Owned: true},
	{Name: "plate", Pickupable: true, Heatable: true, Coolable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomLivingRoom}, On: append([]string{"coffeetable"}, tableware...), Max: 3, Colors: palette},
	{Name: "pan", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: []string{"stoveburner", "countertop", "cabinet", "fridge", "sinkbasin"}, Max: 2},
	{Name: "pot", Pickupable: true, Coolable: true, Cleanable: true, Rooms: kitchen, On: []string{"stoveburner", "countertop", "cabinet", "fridge", "sinkbasin"}, Max: 2},
	{Name: "kettle", Pickupable: true, Cleanable: true, Rooms: kitchen, On: []string{"stoveburner", "countertop", "cabinet", "shelf"}, Max: 2},
	{Name: "winebottle", Pickupable: true, Coolable: true, Rooms: kitchen, On: []string{"countertop", "diningtable", "fridge", "cabinet", "shelf"}, Max: 2},
	{Name: "butterknife", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 2},
	{Name: "fork", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 3},
	{Name: "knife", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 3},
	{Name: "ladle", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 2},
	{Name: "spatula", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 3},
	{Name: "spoon", Pickupable: true, Cleanable: true, Rooms: kitchen, On: cutlery, Max: 3},
	{Name: "dishsponge", Pickupable: true, Cleanable: true, Rooms: []string{RoomKitchen, RoomBathroom}, On: []string{"countertop", "sinkbasin", "cabinet", "drawer", "shelf"}, Max: 2, Colors: palette},
	{Name: "peppershaker", Pickupable: true, Rooms: kitchen, On: []string{"countertop", "cabinet", "shelf", "drawer", "diningtable"}, Max: 2},
	{Name: "saltshaker", Pickupable: true, Rooms: kitchen, On: []string{"countertop", "cabinet", "shelf", "drawer", "diningtable"}, Max: 2},

	// Things of the living room and the bedroom.
	{Name: "alarmclock", Pickupable: true, Rooms: bedroom, On: []string{"desk", "sidetable", "dresser", "shelf"}, Max: 2, Colors: palette},
	{Name: "book", Pickupable: true, Rooms: dry, On: append([]string{"bed", "sofa"}, smallDry...), Max: 3, Colors: palette, Owned: true},
	{Name: "box", Pickupable: true, Rooms: living, On: []string{"coffeetable", "sidetable", "shelf", "sofa", "armchair", "diningtable", "dresser"}, Max: 2, Colors: palette},
	{Name: "cd", Pickupable: true, Rooms: bedroom, On: []string{"desk", "sidetable", "dresser", "shelf", "drawer", "safe"}, Max: 2, Owned: true},
	{Name: "cellphone", Pickupable: true, Rooms: dry, On: append(softDry, smallDry...), Max: 2, Colors: palette, Owned: true},
	{Name: "creditcard", Pickupable: true, Rooms: dry, On: append(softDry, smallDry...), Max: 2, Owned: true},
	{Name: "keychain", Pickupable: true, Rooms: dry, On: append(softDry, smallDry...), Max: 2, Owned: true},
	{Name: "laptop", Pickupable: true, Rooms: dry, On: []string{"bed", "sofa", "armchair", "desk", "coffeetable", "diningtable", "sidetable", "dresser"}, Max: 2, Colors: palette, Owned: true},
	{Name: "newspaper", Pickupable: true, Rooms: living, On: []string{"sofa", "armchair", "coffeetable", "sidetable", "diningtable", "garbagecan"}, Max: 2},
	{Name: "pen", Pickupable: true, Rooms: bedroom, On: []string{"desk", "sidetable", "dresser", "shelf", "drawer"}, Max: 3, Colors: palette},
	{Name: "pencil", Pickupable: true, Rooms: bedroom, On: []string{"desk", "sidetable", "dresser", "shelf", "drawer"}, Max: 3, Colors: palette},
	{Name: "pillow", Pickupable: true, Rooms: dry, On: softDry, Max: 2, Colors: palette, Owned: true},
	{Name: "remotecontrol", Pickupable: true, Rooms: living, On: []string{"sofa", "armchair", "coffeetable", "sidetable", "dresser", "drawer"}, Max: 2},
	{Name: "statue", Pickupable: true, Rooms: living, On: []string{"coffeetable", "sidetable", "shelf", "dresser", "diningtable"}, Max: 2, Colors: palette},
	{Name: "vase", Pickupable: true, Rooms: dry, On: []string{"coffeetable", "sidetable", "shelf", "dresser", "desk", "diningtable"}, Max: 2, Colors: palette},
	{Name: "watch", Pickupable: true, Rooms: dry, On: []string{"coffeetable", "sidetable", "dresser", "desk", "drawer", "safe"}, Max: 2, Owned: true},

	// Things of the bathroom.
	{Name: "candle", Pickupable: true, Rooms: bathroom, On: append([]string{"bathtubbasin"}, bathShelf...), Max: 2, Colors: palette},
	{Name: "cloth", Pickupable: true, Cleanable: true, Rooms: bathroom, On: append([]string{"sinkbasin", "bathtubbasin", "drawer"}, bathShelf...), Max: 2, Colors: palette},
	{Name: "handtowel", Pickupable: true, Rooms: bathroom, On: []string{"handtowelholder", "countertop", "cabinet"}, Max: 2, Colors: palette},
	{Name: "soapbar", Pickupable: true, Cleanable: true, Rooms: bathroom, On: append([]string{"sinkbasin", "bathtubbasin"}, bathShelf...), Max: 2, Colors: palette},
	{Name: "soapbottle", Pickupable: true, Rooms: []string{RoomKitchen, RoomBathroom}, On: bathShelf, Max: 2},
	{Name: "spraybottle", Pickupable: true, Rooms: bathroom, On: append([]string{"drawer", "garbagecan"}, bathShelf...), Max: 2},
	{Name: "tissuebox", Pickupable: true, Rooms: []string{RoomBathroom, RoomLivingRoom}, On: []string{"countertop", "shelf", "toilet", "sidetable", "coffeetable", "dresser"}, Max: 1},
	{Name: "toiletpaper", Pickupable: true, Rooms: bathroom, On: append([]string{"toiletpaperhanger", "garbagecan", "drawer"}, bathShelf...), Max: 2},
	{Name: "towel", Pickupable: true, Rooms: bathroom, On: []string{"towelholder", "bathtubbasin", "countertop", "shelf"}, Max: 1, Colors: palette},

	// Lamps: not carried, switched with "use".
	{Name: KindDeskLamp, Toggleable: true, Rooms: dry, On: []string{"desk", "sidetable", "dresser"}, Max: 1},
	{Name: KindFloorLamp, Toggleable: true, Rooms: living, On: []string{"sidetable", "armchair", "sofa", "dresser"}, Max: 1},
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

// Fits reports whether an object kind may lie in or on a receptacle kind.
func (k Kind) Fits(receptacle string) bool { return slices.Contains(k.On, receptacle) }

// FoundIn reports whether an object kind is found in a room type.
func (k Kind) FoundIn(room string) bool { return slices.Contains(k.Rooms, room) }
