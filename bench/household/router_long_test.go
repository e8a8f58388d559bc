//go:build long

package household

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/llm/models"
)

// The shipped router is what train-router makes with its defaults for the
// simulated model: retraining reproduces agents/dyref/router.json byte for
// byte (on the architecture it was trained on; see package dyref on
// floating point). It plays 19,200 and 38,400 two-trial games: a long
// test (make test-long).
func TestShippedRouterIsReproducible(t *testing.T) {
	t.Parallel()
	if runtime.GOARCH != "amd64" {
		// Go may fuse multiply-adds elsewhere, which moves the last bits
		// of the weights; the shipped files were trained on amd64.
		t.Skip("the shipped routers were trained on amd64; this is " + runtime.GOARCH)
	}
	m, err := models.Open("sim", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, flags string
		tools       int
	}{
		{"router.json", "", dyref.PaperTools},
		{"router-ambiguity.json", " --ambiguity", len(dyref.AllTools)},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			opts := dyref.DefaultTrainOptions()
			opts.Tools = c.tools
			r, _, err := TrainRouter(context.Background(), RouterTraining{Model: m, Alpha: DefaultRouterAlpha, Train: opts, Concurrency: 2})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if _, err := r.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			shipped, err := os.ReadFile(filepath.Join("..", "..", "agents", "dyref", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), shipped) {
				t.Errorf("agents/dyref/%s is not what train-router%s makes with its defaults; retrain it: go run ./cmd/ambibench train-router%s --out agents/dyref/%s", c.file, c.flags, c.flags, c.file)
			}
		})
	}
}
