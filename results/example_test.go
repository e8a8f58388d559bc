package results_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results"
)

func ExampleOpenAppend() {
	dir, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "records.jsonl")

	// A run that was killed after one whole record and part of another.
	w, _, c, err := results.OpenAppend(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "oracle", Episode: 0}
	if err := w.Write(r); err != nil {
		fmt.Println(err)
	}
	c.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"schema":1,"track":"tabl`)
	f.Close()

	// The resumed run gets the whole record back; the partial one is gone.
	w, done, c, err := results.OpenAppend(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for _, r := range done {
		fmt.Println("done:", r.Key())
	}
	r.Episode = 1
	if err := w.Write(r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// done: "tabletop"/"pick_place"/"none"/"oracle"/""/0/0
}
