package semquery_test

import (
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents/semquery"
	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

func TestAnswer(t *testing.T) {
	m := &scenes.SemanticMap{Instances: []scenes.Instance{
		{ID: "obj1", Center: mgl64.Vec3{0, 0, 0.4}, Classes: []scenes.ClassScore{{Class: "couch", P: 0.6}, {Class: "chair", P: 0.4}}},
		{ID: "obj2", Center: mgl64.Vec3{1, 0, 0.4}, Classes: []scenes.ClassScore{{Class: "chair", P: 1}}},
	}}
	for _, c := range []struct {
		why, text string
		want      []string
		ok        bool
	}{
		{"the detector's best class decides: obj1 reads as a couch", "Tell me something I can sit on that is not a couch", []string{"obj2"}, true},
		{"an empty answer is [] not nil", "Is there a bicycle?", []string{}, true},
		{"unreadable text", "hello", nil, false},
	} {
		got, ok := semquery.Answer(m, c.text)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Answer(%q) = %v, %v; want %v, %v", c.why, c.text, got, ok, c.want, c.ok)
		}
	}
	// Hedging over the distribution finds the chair reading of obj1.
	req, _ := semquery.ParseQuery("Where is a chair?")
	if got := semquery.ResolveWith(m, req, semquery.Options{MinP: 0.3}); !reflect.DeepEqual(got, []string{"obj2", "obj1"}) {
		t.Errorf("ResolveWith MinP 0.3 = %v, want [obj2 obj1]", got)
	}
}
