package cassette_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/cassette"
)

func Example() {
	dir, _ := os.MkdirTemp("", "cassette")
	defer os.RemoveAll(dir)
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hello"}}}

	// A live run records each reply as it is paid for...
	live := newFake()
	rec, _ := cassette.Record(dir, live)
	recorded, _ := rec.Generate(context.Background(), req)

	// ...and a replay under the same model name serves it offline.
	play, _ := cassette.Replay(dir, live.Name())
	replayed, _ := play.Generate(context.Background(), req)
	fmt.Println(replayed.Text, reflect.DeepEqual(replayed, recorded))
	fmt.Println(play.Name(), live.calls.Load(), play.(*cassette.Player).Counts())

	// A request never recorded is a miss that names its episode.
	_, err := play.Generate(llm.WithEpisode(context.Background(), "ep-7"), llm.Request{})
	var miss *cassette.MissError
	fmt.Println(errors.As(err, &miss), miss.Episode, miss.Hash == llm.Hash(live.Name(), llm.Request{}))
	// Output:
	// re: hello true
	// openai:gpt-test 1 {1 0}
	// true ep-7 true
}
