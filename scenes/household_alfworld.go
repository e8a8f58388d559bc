package scenes

import "slices"

// canContain is ALFWorld's rule of which receptacle can hold which object:
// VAL_RECEPTACLE_OBJECTS in ALFWorld's constants.py (alfworld/alfworld,
// MIT licence; lines 554–1129, where TableTop's set is given to
// diningtable, coffeetable and sidetable), which its PDDL domain reads as
// canContain facts (alfred.pddl, PutObject). The sliced kinds are left
// out: the household has no slicing. The movable receptacles (bowl, box,
// cup, mug, pan, plate, pot) are objects here, as they are in ALFWorld's
// text games, where nothing is put into them; so are the toaster's slices,
// which leaves the toaster holding nothing. A receptacle kind missing here
// holds nothing.
var canContain = map[string][]string{
	"armchair":          {"basketball", "book", "box", "cellphone", "cloth", "creditcard", "keychain", "laptop", "newspaper", "pillow", "remotecontrol"},
	"bathtubbasin":      {"cloth", "dishsponge", "handtowel", "soapbar"},
	"bed":               {"baseballbat", "basketball", "book", "cellphone", "laptop", "newspaper", "pillow", "tennisracket"},
	"cabinet":           {"book", "bowl", "box", "candle", "cd", "cloth", "cup", "dishsponge", "glassbottle", "handtowel", "kettle", "ladle", "mug", "newspaper", "pan", "peppershaker", "plate", "plunger", "pot", "saltshaker", "soapbar", "soapbottle", "spraybottle", "tissuebox", "toiletpaper", "toiletpaperroll", "vase", "wateringcan", "winebottle"},
	"cart":              {"candle", "cloth", "dishsponge", "handtowel", "mug", "papertowel", "plunger", "soapbar", "soapbottle", "spraybottle", "statue", "tissuebox", "toiletpaper", "toiletpaperroll", "vase"},
	"coffeemachine":     {"mug"},
	"coffeetable":       {"alarmclock", "apple", "baseballbat", "basketball", "book", "bowl", "box", "bread", "butterknife", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "dishsponge", "egg", "fork", "glassbottle", "handtowel", "kettle", "keychain", "knife", "ladle", "laptop", "lettuce", "mug", "newspaper", "pan", "papertowel", "pen", "pencil", "peppershaker", "plate", "pot", "potato", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spatula", "spoon", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "tomato", "vase", "watch", "wateringcan", "winebottle"},
	"countertop":        {"alarmclock", "apple", "baseballbat", "basketball", "book", "bowl", "box", "bread", "butterknife", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "dishsponge", "egg", "fork", "glassbottle", "handtowel", "kettle", "keychain", "knife", "ladle", "laptop", "lettuce", "mug", "newspaper", "pan", "papertowel", "pen", "pencil", "peppershaker", "plate", "pot", "potato", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spatula", "spoon", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "tomato", "vase", "watch", "wateringcan", "winebottle"},
	"desk":              {"alarmclock", "basketball", "book", "bowl", "box", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "glassbottle", "keychain", "laptop", "mug", "newspaper", "pen", "pencil", "plate", "remotecontrol", "soapbottle", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "vase", "watch", "wateringcan", "winebottle"},
	"diningtable":       {"alarmclock", "apple", "baseballbat", "basketball", "book", "bowl", "box", "bread", "butterknife", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "dishsponge", "egg", "fork", "glassbottle", "handtowel", "kettle", "keychain", "knife", "ladle", "laptop", "lettuce", "mug", "newspaper", "pan", "papertowel", "pen", "pencil", "peppershaker", "plate", "pot", "potato", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spatula", "spoon", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "tomato", "vase", "watch", "wateringcan", "winebottle"},
	"drawer":            {"book", "butterknife", "candle", "cd", "cellphone", "cloth", "creditcard", "dishsponge", "fork", "handtowel", "keychain", "knife", "ladle", "newspaper", "pen", "pencil", "peppershaker", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spatula", "spoon", "spraybottle", "tissuebox", "toiletpaper", "toiletpaperroll", "watch", "wateringcan"},
	"dresser":           {"alarmclock", "basketball", "book", "bowl", "box", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "glassbottle", "keychain", "laptop", "mug", "newspaper", "pen", "pencil", "plate", "remotecontrol", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "vase", "watch", "wateringcan", "winebottle"},
	"fridge":            {"apple", "bowl", "bread", "cup", "egg", "glassbottle", "lettuce", "mug", "pan", "plate", "pot", "potato", "tomato", "winebottle"},
	"garbagecan":        {"apple", "bread", "cd", "cloth", "dishsponge", "egg", "handtowel", "lettuce", "newspaper", "papertowel", "pen", "pencil", "potato", "soapbar", "soapbottle", "spraybottle", "tissuebox", "toiletpaper", "toiletpaperroll", "tomato", "winebottle"},
	"handtowelholder":   {"handtowel"},
	"laundryhamper":     {"cloth"},
	"microwave":         {"apple", "bowl", "bread", "cup", "egg", "glassbottle", "mug", "plate", "potato", "tomato"},
	"ottoman":           {"basketball", "book", "box", "cellphone", "cloth", "creditcard", "keychain", "laptop", "newspaper", "pillow", "remotecontrol"},
	"safe":              {"cd", "cellphone", "creditcard", "keychain", "statue", "vase", "watch"},
	"shelf":             {"alarmclock", "book", "bowl", "box", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "dishsponge", "glassbottle", "handtowel", "kettle", "keychain", "mug", "newspaper", "papertowel", "pen", "pencil", "peppershaker", "plate", "pot", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spraybottle", "statue", "tissuebox", "toiletpaper", "toiletpaperroll", "vase", "watch", "wateringcan", "winebottle"},
	"sidetable":         {"alarmclock", "apple", "baseballbat", "basketball", "book", "bowl", "box", "bread", "butterknife", "candle", "cd", "cellphone", "cloth", "creditcard", "cup", "dishsponge", "egg", "fork", "glassbottle", "handtowel", "kettle", "keychain", "knife", "ladle", "laptop", "lettuce", "mug", "newspaper", "pan", "papertowel", "pen", "pencil", "peppershaker", "plate", "pot", "potato", "remotecontrol", "saltshaker", "soapbar", "soapbottle", "spatula", "spoon", "spraybottle", "statue", "tennisracket", "tissuebox", "toiletpaper", "toiletpaperroll", "tomato", "vase", "watch", "wateringcan", "winebottle"},
	"sinkbasin":         {"apple", "bowl", "butterknife", "cloth", "cup", "dishsponge", "egg", "fork", "glassbottle", "handtowel", "kettle", "knife", "ladle", "lettuce", "mug", "pan", "plate", "pot", "potato", "soapbar", "spatula", "spoon", "tomato"},
	"sofa":              {"basketball", "book", "box", "cellphone", "cloth", "creditcard", "keychain", "laptop", "newspaper", "pillow", "remotecontrol"},
	"stoveburner":       {"kettle", "pan", "pot"},
	"toaster":           {},
	"toilet":            {"candle", "cloth", "dishsponge", "handtowel", "newspaper", "papertowel", "soapbar", "soapbottle", "spraybottle", "tissuebox", "toiletpaper", "toiletpaperroll"},
	"toiletpaperhanger": {"toiletpaper", "toiletpaperroll"},
	"towelholder":       {"towel"},
	"tvstand":           {"tissuebox"},
}

// movableReceptacles are the objects ALFWorld can put things into
// (MOVABLE_RECEPTACLES in constants.py, line 476); its text games describe
// one examined as "This is a normal mug 1. In it, you see …"
// (alfred.twl2, examineObject.feedback).
var movableReceptacles = []string{"bowl", "box", "cup", "mug", "pan", "plate", "pot"}

// MovableReceptacle reports whether an object kind is one of ALFWorld's
// movable receptacles.
func MovableReceptacle(kind string) bool { return slices.Contains(movableReceptacles, kind) }
