package simmodel

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// A repeat above 0 (llm.WithRepeat) gives the model draws of its own;
// repeat 0 draws exactly as a context without one.
func TestRepeatSaltsDraws(t *testing.T) {
	m := New(Weak, "sim:weak")
	differ := false
	for i := range 40 {
		req := planRequest(fmt.Sprintf("put a red block %d in the blue bowl", i), 0.7, i%3)
		plain, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		zero, _ := m.Generate(llm.WithRepeat(context.Background(), 0), req)
		one, _ := m.Generate(llm.WithRepeat(context.Background(), 1), req)
		again, _ := m.Generate(llm.WithRepeat(context.Background(), 1), req)
		plain.Latency, zero.Latency, one.Latency, again.Latency = 0, 0, 0, 0
		if !reflect.DeepEqual(plain, zero) {
			t.Fatalf("request %d: repeat 0 drew %+v, without a repeat %+v", i, zero, plain)
		}
		if !reflect.DeepEqual(one, again) {
			t.Fatalf("request %d: repeat 1 is not deterministic", i)
		}
		differ = differ || !reflect.DeepEqual(one, plain)
	}
	if !differ {
		t.Error("repeat 1 drew as repeat 0 on every request")
	}
}
