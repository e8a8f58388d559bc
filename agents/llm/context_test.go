package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// The context is for the simulated model only: encoding a request, as a
// transcript, a cassette or a careless backend might, never carries it.
func TestContextIsNeverMarshalled(t *testing.T) {
	req := Request{Messages: []Message{{Role: RoleUser, Text: "Put it away."}},
		Context: &CallContext{Role: CallPlan, Track: "tabletop", Instruction: "secret-instruction",
			Graph: scenes.BuildGraph([]scenes.Object{scenes.NewBlock("red block 1", "red", 0, -0.5)})}}
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"secret-instruction", "red block 1", "tabletop", "context"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("the encoded request holds %q: %s", leak, data)
		}
	}
}

// Two requests that send the same thing hash alike, whatever context they
// carry: a cassette recorded with the context replays without it.
func TestHashIgnoresContext(t *testing.T) {
	a := Request{Messages: []Message{{Role: RoleUser, Text: "x"}}}
	b := a
	b.Context = &CallContext{Role: CallPlan, Track: "household", Instruction: "y"}
	if Hash("m", a) != Hash("m", b) {
		t.Error("the context changes the hash")
	}
}

// The zero noise states a perfect perceiver over a noise stated before,
// and changes nothing where none was.
func TestPerceptionNoiseCleared(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	if WithPerceptionNoise(bg, scenes.GraphNoise{}) != bg {
		t.Error("the zero noise over none made a new context")
	}
	noisy := WithPerceptionNoise(bg, scenes.GraphNoise{Drop: 0.5, Seed: 3})
	if n := PerceptionNoiseFrom(WithPerceptionNoise(noisy, scenes.GraphNoise{})); !n.IsZero() {
		t.Errorf("the zero noise over drop 0.5: %+v", n)
	}
	if p := PlayFrom(WithPerceptionNoise(noisy, scenes.GraphNoise{})); p != nil {
		t.Errorf("play %+v of a context whose noise was cleared, want nil", p)
	}
}
