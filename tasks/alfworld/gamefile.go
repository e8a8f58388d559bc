package alfworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// A game file holds one [Game], its house and the grammar its texts are
// to be read in, as JSON, so that a published transcript's room can be
// rebuilt and its actions replayed to the same text. [WriteGame] writes
// the fields in a fixed order, one receptacle and one object a line, so
// that two files diff line by line; [ReadGame] checks every field and
// names the one that is wrong. The built-in split's first game, cut:
//
//	{
//	  "version": 1,
//	  "grammar": "v0.3",
//	  "id": "eval/pick_and_place/00",
//	  "type": "pick_and_place",
//	  "seed": "6073532706455731021",
//	  "instruction": "put some plate on coffeetable.",
//	  "phrasing": 1,
//	  "form": "indefinite",
//	  "named": "plate",
//	  "goal": {
//	    "kind": "plate",
//	    "count": 1,
//	    "dest": "coffeetable"
//	  },
//	  "label": "none",
//	  "step_limit": 49,
//	  "rooms": ["livingroom"],
//	  "receptacles": [
//	    {"name":"armchair 2","kind":"armchair","room":"livingroom","loc":8},
//	    …
//	    {"name":"safe 1","kind":"safe","room":"livingroom","loc":1,"openable":true},
//	    …
//	  ],
//	  "items": [
//	    {"name":"plate 1","kind":"plate","in":"sidetable 1","color":"green"},
//	    …
//	    {"name":"laptop 2","kind":"laptop","in":"sofa 1","color":"red","owner":"Sam"},
//	    …
//	  ],
//	  "agent": {"at":"","holding":""}
//	}
//
// Receptacles are listed in the order a look around the room lists them
// and objects in the house's order, so that a game read back is the same
// value as the one written. An object is in the receptacle its "in"
// names; the one the agent holds has no "in", and agent.holding names it.
// Receptacles with the same loc stand at one place. The seed is a string
// because it is a 64-bit number, which many JSON readers round.
//
// GameFileVersion is the version of the format that [WriteGame] writes
// and [ReadGame] reads. It is raised when a field changes meaning, so that
// an old file is refused rather than misread.
const GameFileVersion = 1

// grammarV03 is the other grammar a game file may name, beside
// grammarV04: sim/textworld's two, which this package does not import.
const grammarV03 = "v0.3"

// FileError is a game file's fault: the file, the field as a JSON path
// ("receptacles[3].loc", empty for the file as a whole) and what was
// expected.
type FileError struct {
	File, Field, Msg string
}

func (e *FileError) Error() string {
	if e.Field == "" {
		return e.File + ": " + e.Msg
	}
	return e.File + ": " + e.Field + ": " + e.Msg
}

// The file's JSON, field by field in the order they are written. A field
// without omitempty must be present; one with it may be left out for its
// zero value.
type (
	fileHead struct {
		Version     int             `json:"version"`
		Grammar     string          `json:"grammar"`
		ID          string          `json:"id"`
		Type        string          `json:"type"`
		Seed        string          `json:"seed,omitempty"`
		Instruction string          `json:"instruction"`
		Phrasing    int             `json:"phrasing"`
		Form        string          `json:"form"`
		Named       string          `json:"named"`
		Goal        json.RawMessage `json:"goal"`
		Label       string          `json:"label"`
		Answer      string          `json:"answer,omitempty"`
		StepLimit   int             `json:"step_limit"`
	}
	fileJSON struct {
		fileHead
		Rooms       []string          `json:"rooms"`
		Receptacles []json.RawMessage `json:"receptacles"`
		Items       []json.RawMessage `json:"items"`
		Agent       json.RawMessage   `json:"agent"`
	}
	goalJSON struct {
		Kind  string `json:"kind"`
		Item  string `json:"item,omitempty"`
		Count int    `json:"count"`
		State string `json:"state,omitempty"`
		Dest  string `json:"dest,omitempty"`
		Lamp  string `json:"lamp,omitempty"`
	}
	receptacleJSON struct {
		Name     string `json:"name"`
		Kind     string `json:"kind"`
		Room     string `json:"room"`
		Loc      int    `json:"loc"`
		Openable bool   `json:"openable,omitempty"`
		Open     bool   `json:"open,omitempty"`
	}
	itemJSON struct {
		Name  string `json:"name"`
		Kind  string `json:"kind"`
		In    string `json:"in,omitempty"`
		Hot   bool   `json:"hot,omitempty"`
		Cold  bool   `json:"cold,omitempty"`
		Clean bool   `json:"clean,omitempty"`
		On    bool   `json:"on,omitempty"`
		Color string `json:"color,omitempty"`
		Owner string `json:"owner,omitempty"`
	}
	agentJSON struct {
		At      string `json:"at"`
		Holding string `json:"holding"`
	}
)

// The names of the forms in a file.
var formNames = []string{FormIndefinite: "indefinite", FormDefinite: "definite", FormVague: "vague"}

// WriteGame writes g to w as a game file in the grammar named. It fails,
// writing nothing, on a grammar it does not know or a game whose house
// does not hold together (an item in a receptacle out of range, say),
// which no file could say.
func WriteGame(w io.Writer, g *Game, grammar string) error {
	b, err := MarshalGame(g, grammar)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// MarshalGame returns g as a game file's bytes; see [WriteGame].
func MarshalGame(g *Game, grammar string) ([]byte, error) {
	if grammar != grammarV03 && grammar != grammarV04 {
		return nil, fmt.Errorf("writing game %s: grammar %q: want %s or %s", g.ID, grammar, grammarV03, grammarV04)
	}
	h := g.House
	if h == nil {
		return nil, fmt.Errorf("writing game %s: it has no house", g.ID)
	}
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("writing game %s: %w", g.ID, err)
	}
	if int(g.form) >= len(formNames) {
		return nil, fmt.Errorf("writing game %s: form %d is none of %v", g.ID, g.form, formNames)
	}
	head := fileHead{
		Version:     GameFileVersion,
		Grammar:     grammar,
		ID:          g.ID,
		Type:        g.Type,
		Instruction: g.Instruction,
		Phrasing:    g.phrasing,
		Form:        formNames[g.form],
		Named:       g.named,
		Label:       g.Label,
		Answer:      g.Answer,
		StepLimit:   g.StepLimit,
	}
	head.Goal, _ = json.Marshal(goalJSON{Kind: g.Goal.Kind, Item: g.Goal.Item, Count: g.Goal.Count, State: g.Goal.State, Dest: g.Goal.Dest, Lamp: g.Goal.Lamp})
	if g.Seed != 0 {
		head.Seed = strconv.FormatUint(g.Seed, 10)
	}
	var b bytes.Buffer
	top, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing game %s: %w", g.ID, err)
	}
	// The head's scalars one a line, then the lists, one element a line.
	b.Write(bytes.TrimSuffix(top, []byte("\n}")))
	rooms, _ := json.Marshal(h.Rooms)
	if h.Rooms == nil {
		rooms = []byte("[]")
	}
	b.WriteString(",\n  \"rooms\": ")
	b.Write(rooms)
	recs := make([]any, len(h.Receptacles))
	for i, r := range h.Receptacles {
		recs[i] = receptacleJSON{Name: r.Name, Kind: r.Kind, Room: r.Room, Loc: r.Loc, Openable: r.Openable, Open: r.Open}
	}
	writeList(&b, "receptacles", recs)
	items := make([]any, len(h.Items))
	for i, it := range h.Items {
		in := ""
		if it.In != scenes.Nowhere {
			in = h.Receptacles[it.In].Name
		}
		items[i] = itemJSON{Name: it.Name, Kind: it.Kind, In: in, Hot: it.Hot, Cold: it.Cold, Clean: it.Clean, On: it.On, Color: it.Color, Owner: it.Owner}
	}
	writeList(&b, "items", items)
	var agent agentJSON
	if h.At != scenes.Nowhere {
		agent.At = h.Receptacles[h.At].Name
	}
	if h.Held != scenes.Nowhere {
		agent.Holding = h.Items[h.Held].Name
	}
	a, _ := json.Marshal(agent)
	b.WriteString(",\n  \"agent\": ")
	b.Write(a)
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// writeList writes a list field with one compact element a line.
func writeList(b *bytes.Buffer, name string, elems []any) {
	fmt.Fprintf(b, ",\n  %q: [", name)
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		j, _ := json.Marshal(e) // plain strings, numbers and bools
		b.WriteString("\n    ")
		b.Write(j)
	}
	if len(elems) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteByte(']')
}

// WriteGameFile writes g to the file at path; see [WriteGame].
func WriteGameFile(path string, g *Game, grammar string) error {
	b, err := MarshalGame(g, grammar)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, b, 0o644)
}

// ReadGameFile reads the game file at path; see [ReadGame].
func ReadGameFile(path string) (g *Game, grammar string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	return UnmarshalGame(b, path)
}

// ReadGame reads a game file from r; name is the file's name in errors.
// It returns the game and the grammar the file names.
func ReadGame(r io.Reader, name string) (g *Game, grammar string, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	return UnmarshalGame(b, name)
}

// UnmarshalGame reads a game file's bytes; name is the file's name in
// errors. Every field is checked: no field it does not know, every
// required one present, kinds that the knowledge table has, names that
// refer to receptacles and objects of the house, a house that holds
// together ([scenes.House.Validate]) and a goal that the house can meet.
// An error is a [*FileError].
func UnmarshalGame(data []byte, name string) (*Game, string, error) {
	d := &decoder{file: name}
	g, grammar := d.game(data)
	if d.err != nil {
		return nil, "", d.err
	}
	return g, grammar, nil
}

// decoder reads a game file, keeping the first fault.
type decoder struct {
	file string
	err  error
}

// fail records a fault in field path unless one is recorded already: the
// first fault is the one to mend first, and later ones may follow from it.
func (d *decoder) fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &FileError{File: d.file, Field: path, Msg: fmt.Sprintf(format, args...)}
	}
}

// object decodes raw, a JSON object at path, into v, a pointer to one of
// the structs above: it refuses fields that v does not have and requires
// those whose tag has no omitempty, then names the field of a value of
// the wrong type.
func (d *decoder) object(path string, raw []byte, v any) bool {
	if d.err != nil {
		return false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		d.fail(path, "want a JSON object, got %s", describeJSON(raw, err))
		return false
	}
	known := fieldsOf[reflect.TypeOf(v).Elem()]
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(known, func(f jsonField) bool { return f.name == k }) {
			names := make([]string, len(known))
			for i, f := range known {
				names[i] = f.name
			}
			d.fail(join(path, k), "unknown field (want one of %s)", strings.Join(names, ", "))
			return false
		}
	}
	for _, f := range known {
		if _, ok := fields[f.name]; !ok && f.required {
			d.fail(join(path, f.name), "missing: want %s", f.want)
			return false
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// Field is the path below v, with the fields' JSON names.
			// Field is the path below v, an embedded struct's name
			// included; v's fields hold no objects of their own.
			field := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
			want := "another type"
			if i := slices.IndexFunc(known, func(f jsonField) bool { return f.name == field }); i >= 0 {
				want = known[i].want
			}
			d.fail(join(path, field), "want %s, got a JSON %s", want, te.Value)
			return false
		}
		d.fail(path, "%v", err)
		return false
	}
	return true
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// describeJSON says what kind of JSON value raw is, for an error.
func describeJSON(raw []byte, err error) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("invalid JSON (%v at byte %d)", se, se.Offset)
		}
		return fmt.Sprintf("invalid JSON (%v)", err)
	}
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// jsonField is a field of a file's struct as the JSON names it.
type jsonField struct {
	name     string
	required bool
	want     string // what its value must be, for errors
}

// fieldsOf holds the JSON fields of each struct a file is decoded into,
// listed once rather than at each of a file's hundred objects.
var fieldsOf = func() map[reflect.Type][]jsonField {
	m := map[reflect.Type][]jsonField{}
	for _, t := range []reflect.Type{reflect.TypeFor[fileJSON](), reflect.TypeFor[goalJSON](), reflect.TypeFor[receptacleJSON](), reflect.TypeFor[itemJSON](), reflect.TypeFor[agentJSON]()} {
		m[t] = jsonFields(t)
	}
	return m
}()

// jsonFields lists the JSON fields of a struct type, those of embedded
// structs included, in order.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		want := "a string"
		switch f.Type.Kind() {
		case reflect.Int:
			want = "a whole number"
		case reflect.Bool:
			want = "true or false"
		case reflect.Slice:
			want = "an array"
			if f.Type.Elem().Kind() == reflect.String {
				want = "an array of strings"
			}
		case reflect.Struct:
			want = "an object"
		}
		if f.Type == reflect.TypeFor[json.RawMessage]() {
			want = "an object"
		}
		out = append(out, jsonField{name: name, required: !strings.Contains(opts, "omitempty"), want: want})
	}
	return out
}

// labels are the ground truths a game may have: those the simulated user
// and the scoring know.
var labels = []string{tasks.LabelNone, tasks.LabelAbsence, tasks.LabelMultiplicity, tasks.LabelUnderspecified, tasks.LabelPartialObservability}

// game decodes and checks the whole file.
func (d *decoder) game(data []byte) (*Game, string) {
	var f fileJSON
	if !d.object("", data, &f) {
		return nil, ""
	}
	if f.Version != GameFileVersion {
		d.fail("version", "want %d, the version this ambibench reads, got %d", GameFileVersion, f.Version)
		return nil, ""
	}
	if f.Grammar != grammarV03 && f.Grammar != grammarV04 {
		d.fail("grammar", "want %s or %s, got %q", grammarV03, grammarV04, f.Grammar)
	}
	g := &Game{
		ID:          f.ID,
		Type:        f.Type,
		Instruction: f.Instruction,
		Label:       f.Label,
		Answer:      f.Answer,
		StepLimit:   f.StepLimit,
		phrasing:    f.Phrasing,
		named:       f.Named,
	}
	if f.ID == "" {
		d.fail("id", "want a name for the game, got \"\"")
	}
	forms, ok := phrasings[f.Type]
	if !ok {
		d.fail("type", "want one of %s, got %q", strings.Join(Types(), ", "), f.Type)
		return nil, ""
	}
	if f.Seed != "" {
		s, err := strconv.ParseUint(f.Seed, 10, 64)
		if err != nil {
			d.fail("seed", "want a whole number from 0 to 2^64-1 in a string, as \"123\", got %q", f.Seed)
		}
		g.Seed = s
	}
	if f.Instruction == "" {
		d.fail("instruction", "want the task's sentence, got \"\"")
	}
	if f.Phrasing < 0 || f.Phrasing >= len(forms) {
		d.fail("phrasing", "want a number from 0 to %d (the phrasings of %s), got %d", len(forms)-1, f.Type, f.Phrasing)
		return nil, ""
	}
	form := slices.Index(formNames, f.Form)
	switch {
	case form < 0:
		d.fail("form", "want one of %s, got %q", strings.Join(formNames, ", "), f.Form)
	case form >= len(forms[f.Phrasing]) || forms[f.Phrasing][form] == "":
		d.fail("form", "%s has no %s phrasing", f.Type, f.Form)
	}
	g.form = Form(max(form, 0))
	if k, ok := scenes.KindOf(f.Named); !ok || k.Receptacle {
		d.fail("named", "want an object kind, got %q", f.Named)
	}
	if !slices.Contains(labels, f.Label) {
		d.fail("label", "want one of %s, got %q", strings.Join(labels, ", "), f.Label)
	}
	if f.StepLimit < 1 {
		d.fail("step_limit", "want a number from 1, got %d", f.StepLimit)
	}
	g.House = d.house(f)
	var gl goalJSON
	if g.House != nil && d.object("goal", f.Goal, &gl) {
		g.Goal = Goal{Type: f.Type, Kind: gl.Kind, Item: gl.Item, Count: gl.Count, State: gl.State, Dest: gl.Dest, Lamp: gl.Lamp}
		d.goal(g)
	}
	return g, f.Grammar
}

// house decodes the rooms, receptacles, items and agent and checks that
// they hold together.
func (d *decoder) house(f fileJSON) *scenes.House {
	if d.err != nil {
		return nil
	}
	h := &scenes.House{Rooms: slices.Clone(f.Rooms), At: scenes.Nowhere, Held: scenes.Nowhere}
	if h.Rooms == nil {
		h.Rooms = []string{}
	}
	if len(f.Rooms) == 0 {
		d.fail("rooms", "want at least one of %s", strings.Join(scenes.HouseRooms(), ", "))
	}
	for i, r := range f.Rooms {
		switch {
		case !slices.Contains(scenes.HouseRooms(), r):
			d.fail(fmt.Sprintf("rooms[%d]", i), "want one of %s, got %q", strings.Join(scenes.HouseRooms(), ", "), r)
		case slices.Contains(f.Rooms[:i], r):
			d.fail(fmt.Sprintf("rooms[%d]", i), "%q is listed twice", r)
		}
	}
	names := map[string]string{} // name → the field that first used it
	h.Receptacles = make([]scenes.Receptacle, len(f.Receptacles))
	for i, raw := range f.Receptacles {
		path := fmt.Sprintf("receptacles[%d]", i)
		var r receptacleJSON
		if !d.object(path, raw, &r) {
			return nil
		}
		k, ok := scenes.KindOf(r.Kind)
		switch {
		case !ok || !k.Receptacle:
			d.fail(path+".kind", "want a receptacle kind, got %q", r.Kind)
		case !numbered(r.Name, r.Kind):
			d.fail(path+".name", "want %q and a number from 1, got %q", r.Kind, r.Name)
		case names[r.Name] != "":
			d.fail(path+".name", "%q is the name of %s too", r.Name, names[r.Name])
		case !slices.Contains(f.Rooms, r.Room):
			d.fail(path+".room", "want one of the rooms (%s), got %q", strings.Join(f.Rooms, ", "), r.Room)
		case r.Loc < 1:
			d.fail(path+".loc", "want a number from 1, got %d", r.Loc)
		case r.Openable && !k.Openable:
			d.fail(path+".openable", "a %s never opens; want false", r.Kind)
		case r.Open && !r.Openable:
			d.fail(path+".open", "want false for a receptacle that does not open")
		}
		names[r.Name] = path
		h.Receptacles[i] = scenes.Receptacle{Name: r.Name, Kind: r.Kind, Room: r.Room, Loc: r.Loc, Openable: r.Openable, Open: r.Open}
	}
	var agent agentJSON
	if !d.object("agent", f.Agent, &agent) {
		return nil
	}
	if agent.At != "" {
		var ok bool
		if h.At, ok = h.ReceptacleIndex(agent.At); !ok {
			d.fail("agent.at", "want the name of a receptacle, or \"\" for the middle of the room, got %q", agent.At)
		}
	}
	owners := scenes.HouseOwners()
	h.Items = make([]scenes.Item, len(f.Items))
	for i, raw := range f.Items {
		path := fmt.Sprintf("items[%d]", i)
		var it itemJSON
		if !d.object(path, raw, &it) {
			return nil
		}
		item := scenes.Item{Name: it.Name, Kind: it.Kind, In: scenes.Nowhere, Hot: it.Hot, Cold: it.Cold, Clean: it.Clean, On: it.On, Color: it.Color, Owner: it.Owner}
		k, ok := scenes.KindOf(it.Kind)
		switch {
		case !ok || k.Receptacle:
			d.fail(path+".kind", "want an object kind, got %q", it.Kind)
		case !numbered(it.Name, it.Kind):
			d.fail(path+".name", "want %q and a number from 1, got %q", it.Kind, it.Name)
		case names[it.Name] != "":
			d.fail(path+".name", "%q is the name of %s too", it.Name, names[it.Name])
		case it.In == "" && it.Name != agent.Holding:
			d.fail(path+".in", "missing: want the name of the receptacle it is in or on (only the object agent.holding names has none)")
		case it.In != "" && it.Name == agent.Holding:
			d.fail(path+".in", "the agent holds %s (agent.holding); want no \"in\", got %q", it.Name, it.In)
		case it.Hot && it.Cold:
			d.fail(path, "hot and cold at once; want one or neither")
		case it.On && !k.Toggleable:
			d.fail(path+".on", "a %s cannot be switched on; want false", it.Kind)
		case it.Color != "" && !slices.Contains(k.Colors, it.Color):
			d.fail(path+".color", "want %s, got %q", oneOf("a colour a "+it.Kind+" has", k.Colors), it.Color)
		case it.Owner != "" && !k.Owned:
			d.fail(path+".owner", "a %s belongs to no one; want none, got %q", it.Kind, it.Owner)
		case it.Owner != "" && !slices.Contains(owners, it.Owner):
			d.fail(path+".owner", "want one of %s, got %q", strings.Join(owners, ", "), it.Owner)
		}
		if it.In != "" {
			if item.In, ok = h.ReceptacleIndex(it.In); !ok {
				d.fail(path+".in", "want the name of a receptacle, got %q", it.In)
			}
		} else {
			h.Held = i
		}
		names[it.Name] = path
		h.Items[i] = item
	}
	if agent.Holding != "" {
		if _, ok := h.ItemIndex(agent.Holding); !ok {
			d.fail("agent.holding", "want the name of an object, or \"\" for an empty hand, got %q", agent.Holding)
		}
	}
	if d.err != nil {
		return nil
	}
	// What the checks above have missed, the house's own check finds.
	if err := h.Validate(); err != nil {
		d.fail("", "%v", err)
		return nil
	}
	return h
}

// oneOf says "one of a, b, c", or none when there is nothing to choose.
func oneOf(what string, choices []string) string {
	if len(choices) == 0 {
		return "none (" + what + ": none)"
	}
	return "one of " + strings.Join(choices, ", ")
}

// numbered reports whether name is kind, a space and a number from 1, as
// receptacles and objects are named ("cabinet 3").
func numbered(name, kind string) bool {
	num, ok := strings.CutPrefix(name, kind+" ")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(num)
	return err == nil && n >= 1 && strconv.Itoa(n) == num
}

// goal checks that g's goal is one its type can have and its house can
// meet: kinds the house has, the object meant among them, the state and
// count its type asks for.
func (d *decoder) goal(g *Game) {
	s := specs[g.Type]
	gl := g.Goal
	h := g.House
	k, ok := scenes.KindOf(gl.Kind)
	if !ok || k.Receptacle || !k.Pickupable {
		d.fail("goal.kind", "want a kind of object that can be picked up, got %q", gl.Kind)
		return
	}
	if gl.Count != s.count {
		d.fail("goal.count", "want %d for %s, got %d", s.count, g.Type, gl.Count)
	}
	if gl.State != s.state {
		d.fail("goal.state", "want %q for %s, got %q", s.state, g.Type, gl.State)
	}
	if gl.Item != "" {
		i, ok := h.ItemIndex(gl.Item)
		switch {
		case !ok:
			d.fail("goal.item", "want the name of an object of the house, got %q", gl.Item)
		case h.Items[i].Kind != gl.Kind:
			d.fail("goal.item", "want a %s (goal.kind), got %q", gl.Kind, gl.Item)
		}
	}
	n := 0
	for i := range h.Items {
		if gl.Matches(&h.Items[i]) {
			n++
		}
	}
	if n < gl.Count && d.err == nil {
		d.fail("goal", "the house has %d of %s; want at least %d", n, gl.what(), gl.Count)
	}
	if g.Type == TypeLookAtObjInLight {
		if gl.Dest != "" {
			d.fail("goal.dest", "want none for %s, got %q", g.Type, gl.Dest)
		}
		switch {
		case gl.Lamp != scenes.KindDeskLamp && gl.Lamp != scenes.KindFloorLamp:
			d.fail("goal.lamp", "want %s or %s, got %q", scenes.KindDeskLamp, scenes.KindFloorLamp, gl.Lamp)
		case len(h.ItemsOf(gl.Lamp)) == 0:
			d.fail("goal.lamp", "the house has no %s", gl.Lamp)
		}
		return
	}
	if gl.Lamp != "" {
		d.fail("goal.lamp", "want none for %s, got %q", g.Type, gl.Lamp)
	}
	switch {
	case len(h.ReceptaclesOf(gl.Dest)) == 0:
		d.fail("goal.dest", "want the kind of a receptacle of the house, got %q", gl.Dest)
	case !k.Fits(gl.Dest):
		d.fail("goal.dest", "a %s cannot be put in or on a %s", gl.Kind, gl.Dest)
	}
}

// CheckStart reports, as a fault of the file named, a game whose agent
// is not where every game starts: the engine's reset puts the agent in
// the middle of the room with nothing in hand, so a file that says
// otherwise describes a state, not a game to play (and the object it
// holds would be left nowhere).
func (g *Game) CheckStart(file string) error {
	if h := g.House; h != nil && (h.At != scenes.Nowhere || h.Held != scenes.Nowhere) {
		return &FileError{File: file, Field: "agent", Msg: `a game starts in the middle of the room with nothing in hand; want {"at":"","holding":""}`}
	}
	return nil
}
