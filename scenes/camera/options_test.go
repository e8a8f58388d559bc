package camera

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// TestOptionsJSON: a run's settings record the options as JSON, so they
// must round-trip and read as plain snake_case fields.
func TestOptionsJSON(t *testing.T) {
	o := DefaultOptions()
	o.View, o.TwoRobots, o.Partial, o.Robot = TopDown, true, true, scenes.Robot2
	o.Eye, o.FovY = [3]float64{0.1, -1.2, 0.9}, 50
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"width":640`, `"view":"top-down"`, `"eye":[0.1,-1.2,0.9]`, `"fov_y":50`, `"two_robots":true`, `"robot":"robot2"`, `"partial":true`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("%s lacks %s", b, key)
		}
	}
	var back Options
	if err := json.Unmarshal(b, &back); err != nil || back != o {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, o)
	}
}
