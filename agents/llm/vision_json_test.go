package llm

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// ImageObjectsJSON writes what json.Marshal writes: no list, an empty
// one, plain names, names JSON escapes (a quote, <, a control byte,
// non-ASCII), and boxes of any ints.
func TestImageObjectsJSONIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	words := []string{"", "red", "block", "red block", "blue bowl", `say "hi"`, "a<b", "tab\t", "ünï", "back\\slash", "del\x7f"}
	lists := [][]ImageObject{nil, {}}
	for range 200 {
		objs := make([]ImageObject, rng.IntN(6))
		for i := range objs {
			o := &objs[i]
			o.Name, o.Color, o.Type = words[rng.IntN(len(words))], words[rng.IntN(4)], words[rng.IntN(len(words))]
			for k := range o.Box {
				o.Box[k] = rng.IntN(2001) - 500
			}
			if rng.IntN(10) == 0 {
				o.Box[rng.IntN(4)] = -1 << 62
			}
		}
		lists = append(lists, objs)
	}
	for _, objs := range lists {
		want, err := json.Marshal(ImageObjects{Objects: objs})
		if err != nil {
			t.Fatal(err)
		}
		if got := ImageObjectsJSON(objs); !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %s\nwant %s", objs, got, want)
		}
	}
}
