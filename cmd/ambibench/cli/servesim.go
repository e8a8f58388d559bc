package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

func serveSimCmd(stdout, stderr io.Writer, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return serveSim(ctx, stdout, stderr, args)
}

// serveSim serves the simulated model as an OpenAI-compatible endpoint
// until ctx ends. It prints the base URL once it is listening.
func serveSim(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench serve-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8088", "`host:port` to listen on (port 0 picks a free one)")
	spec := fs.String("model", "sim", "simulated model `spec` to serve: sim, sim:perfect, sim:weak or sim:RATES")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: ambibench serve-sim [flags]\n\nServes the simulated model at an OpenAI-compatible /v1/chat/completions\nendpoint (tool calls included) and at Gemini's\n/v1beta/models/MODEL:generateContent, so any OpenAI or Gemini client can\nuse a free, deterministic model: point it at the printed base URL.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, stdout, stderr, func() error { return fs.Parse(args) }); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve-sim: unexpected arguments %q", fs.Args())
	}
	if *spec != "sim" && !strings.HasPrefix(*spec, "sim:") {
		return fmt.Errorf("serve-sim: --model %q: only simulated models are served (sim, sim:perfect, sim:weak, sim:RATES)", *spec)
	}
	m, err := models.Open(*spec, nil)
	if err != nil {
		return fmt.Errorf("serve-sim: --model: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve-sim: %w", err)
	}
	srv := &http.Server{Handler: serve.Handler(m), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s at http://%s/v1\n", m.Name(), ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve-sim: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
