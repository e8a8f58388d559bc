package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/llmtest"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// recordCalls plays a few episodes of every workflow of a track on the
// default simulated model (which slips, so that questions, refusals,
// reflections and retries happen) and returns the requests it made.
func recordCalls(t *testing.T, opts bench.Options) []llm.Request {
	t.Helper()
	rec := &llmtest.Recorder{Model: simmodel.New(simmodel.Default, "sim")}
	opts.Model, opts.Seed = rec, 1
	if opts.Agents == nil {
		for _, a := range agents.NamesFor(opts.Track.Name()) {
			if info, _ := agents.Lookup(a); info.UsesModel {
				opts.Agents = append(opts.Agents, a)
			}
		}
	}
	jobs, err := bench.Jobs(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if _, err := bench.RunEpisode(context.Background(), j, opts); err != nil {
			t.Fatalf("%s: %v", j.Key(opts.Seed, "sim"), err)
		}
	}
	return rec.Requests()
}

var (
	callsOnce sync.Once
	calls     []llm.Request
	// firstImagePlan is the first planning request, with the image, of
	// each workflow that shows it, by agent.
	firstImagePlan map[string]llm.Request
)

// workflowCalls are the requests of a few episodes of every workflow of
// every track, recorded once per test binary.
func workflowCalls(t *testing.T) []llm.Request {
	t.Helper()
	callsOnce.Do(func() {
		// The built-in perturbations, named: the golden HTTP bodies are of
		// the first call of each kind, which a perturbation registered
		// since would otherwise move.
		// The detector's list (--perception detector), for models that
		// take no image.
		calls = append(calls, recordCalls(t, bench.Options{Track: &tabletop.Track{StepLimit: tabletop.DefaultStepLimit, Perception: agents.PerceptionDetector}, Episodes: 2,
			Perturbations: []string{"none", "absence", "multiplicity", "underspecified", "partial_observability", "scene_graph_noise", "execution_noise"}})...)
		// Perceiving through the camera image (the default), one workflow
		// at a time, so that the first planning prompt of each that shows
		// the image is kept: its detection call, its scene-graph call, its
		// prompts with the image.
		firstImagePlan = map[string]llm.Request{}
		for _, a := range agents.NamesFor(agents.TrackTabletop) {
			if info, _ := agents.Lookup(a); !info.ShowsImages {
				continue
			}
			rs := recordCalls(t, bench.Options{Track: tabletop.New(), Episodes: 2, Agents: []string{a},
				Perturbations: []string{"none", "multiplicity", "partial_observability"}})
			calls = append(calls, rs...)
			for _, r := range rs {
				if r.Context.Role == llm.CallPlan && len(r.Messages[0].Images) > 0 {
					firstImagePlan[a] = r
					break
				}
			}
		}
		calls = append(calls, recordCalls(t, bench.Options{Track: &household.Track{Trials: 3, Grammar: "v0.3"}, Episodes: 2,
			Perturbations: []string{"none", "absence", "multiplicity", "underspecified", "partial_observability"}})...)
		calls = append(calls, recordCalls(t, bench.Options{Track: &semmap.Track{Dataset: mapqueries.Builtin(1), Modes: semmap.Modes}, Episodes: 3})...)
	})
	if len(calls) == 0 {
		t.Fatal("no workflow calls were recorded")
	}
	return calls
}

// sent is everything a request sends a model, as one text: the system
// prompt, every message's text and tool calls, and the tool declarations.
func sent(req llm.Request) string {
	var b strings.Builder
	b.WriteString(req.System)
	for _, m := range req.Messages {
		b.WriteString("\x00" + m.Text)
		for _, tc := range m.ToolCalls {
			b.WriteString("\x00" + tc.Name + "\x00" + string(tc.Args))
		}
	}
	for _, d := range req.Tools {
		b.WriteString("\x00" + d.Name + "\x00" + d.Description + "\x00" + string(d.Schema))
	}
	return b.String()
}

// certainP reports a class probability of the certainty input.
func certainP(path, mode string) bool {
	return mode == agents.ModeCertainty && strings.HasSuffix(path, ".P")
}

// callKind names a kind of call by the context's labels.
func callKind(cc *llm.CallContext) string {
	k := cc.Track + "/" + cc.Role + "/" + cc.Format
	if cc.Tool != "" {
		k += "/" + cc.Tool
	}
	if cc.Mode != "" {
		k += "/" + cc.Mode
	}
	if cc.ImageSize != ([2]int{}) {
		k += "/image"
	}
	return k
}

// labels are the context's fields that say what kind of call it is; they
// are checked against the known values, not looked for in the prompt.
var labels = map[string][]string{
	"Role":   {llm.CallPlan, llm.CallReflect, llm.CallRefine, llm.CallChoose, llm.CallClassify, llm.CallAnswer, llm.CallPerceive, llm.CallDetect},
	"Track":  {agents.TrackTabletop, agents.TrackHousehold, agents.TrackSemmap},
	"Format": {llm.FormatToolCalls, llm.FormatJSON, llm.FormatText, llm.FormatProgram, llm.FormatSGCoTText},
	"Tool":   append([]string{""}, append(slices.Clone(agents.ReflectionTools), agents.ReflectPlan)...),
	"Mode":   {"", agents.ModeCertainty, agents.ModeUncertainty, llm.ModeNodesOnly},
}

// missing lists the values of the context that the request does not
// send: every string (raw, or as JSON writes it), every number at the
// two decimals a semantic map's text shows them or the three an object
// list's positions are printed with, and the trial
// number as "attempt N".
func missing(cc *llm.CallContext, text string) []string {
	var out []string
	has := func(s string) bool {
		if strings.Contains(text, s) {
			return true
		}
		q, _ := json.Marshal(s)
		return strings.Contains(text, string(q[1:len(q)-1]))
	}
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Struct:
			if n, ok := v.Interface().(scenes.Node); ok {
				// An attribute counts as shown when the prompt writes it
				// as the scene-graph JSON does, or when the node's id
				// names it ("red block 1": colour and type), or, for the
				// workspace, as the robot's workspace.
				if !has(n.ID) {
					out = append(out, fmt.Sprintf("%s.ID = %q", path, n.ID))
				}
				for k, val := range n.Attributes {
					pair, _ := json.Marshal(map[string]string{k: val})
					shown := has(strings.Replace(strings.Trim(string(pair), "{}"), ":", ": ", 1)) ||
						slices.Contains(strings.Fields(n.ID), val) ||
						k == scenes.AttrWorkspace && has(val+"'s workspace") ||
						k == scenes.AttrWorkspace && has(n.ID+" is in the "+val)
					if !shown {
						out = append(out, fmt.Sprintf("%s.Attributes[%s] = %q", path, k, val))
					}
				}
				return
			}
			if d, ok := v.Interface().(llm.Detection); ok {
				// A detection shows as the perceive prompt lists it
				// ("color red", the box in mm as Go writes it shortest)
				// or as a baseline's list does (its id names colour and
				// type, the workspace in words, the centre in metres at
				// three decimals).
				if !has(d.ID) {
					out = append(out, fmt.Sprintf("%s.ID = %q", path, d.ID))
				}
				for k, val := range d.Attributes {
					shown := has(k+" "+val) || slices.Contains(strings.Fields(d.ID), val) ||
						k == scenes.AttrWorkspace && (has(val+"'s workspace") || val == scenes.RegionShared && has("in the shared workspace"))
					if !shown {
						out = append(out, fmt.Sprintf("%s.Attributes[%s] = %q", path, k, val))
					}
				}
				for i, f := range append(d.Pos[:], d.Size[:]...) {
					if f == 0 {
						continue
					}
					if !has(strconv.FormatFloat(f, 'f', -1, 64)) && !(i < 2 && has(strconv.FormatFloat(f/1000, 'f', 3, 64))) {
						out = append(out, fmt.Sprintf("%s box number %d = %v", path, i, f))
					}
				}
				return
			}
			if _, ok := v.Interface().(llm.Seen); ok {
				// What the image shows: the request sends it as pixels.
				return
			}
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if v.Type() == reflect.TypeFor[llm.CallContext]() && f.Name == "ImageSize" {
					continue // the image's own size, sent with it
				}
				if f.IsExported() && !(v.Type() == reflect.TypeFor[llm.HouseStep]() && f.Name == "Tool") {
					// A step's tool (act or ask) is how the prompt writes
					// the step, not a word in it.
					walk(path+"."+f.Name, v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case reflect.Map:
			iter := v.MapRange()
			for iter.Next() {
				walk(path+"[key]", iter.Key())
				walk(path+"["+iter.Key().String()+"]", iter.Value())
			}
		case reflect.String:
			if s := v.String(); s != "" && !has(s) {
				out = append(out, fmt.Sprintf("%s = %.120q", path, s))
			}
		case reflect.Float64:
			if certainP(path, cc.Mode) {
				// The certainty input shows each object's best class
				// and no probability; the context takes it as certain.
				return
			}
			// A semantic map's numbers show at two decimals, a baseline's
			// object positions at three, a detection's box (in mm) as Go
			// writes it shortest.
			if s := strconv.FormatFloat(v.Float(), 'f', 2, 64); v.Float() != 0 && !has(s) && !has(strconv.FormatFloat(v.Float(), 'f', 3, 64)) && !has(strconv.FormatFloat(v.Float(), 'f', -1, 64)) {
				out = append(out, fmt.Sprintf("%s = %s", path, s))
			}
		case reflect.Int:
			if n := v.Int(); n != 0 && !has(strconv.FormatInt(n, 10)) {
				out = append(out, fmt.Sprintf("%s = %d", path, n))
			}
		}
	}
	c := *cc
	// The labels say what kind of call this is; the rest is data.
	c.Version, c.Role, c.Track, c.Format, c.Tool, c.Mode = 0, "", "", "", "", ""
	if c.Trial > 0 && !strings.Contains(strings.ToLower(text), fmt.Sprintf("attempt %d", c.Trial)) {
		out = append(out, fmt.Sprintf(".Trial = %d (no \"attempt %d\" in the prompt)", c.Trial, c.Trial))
	}
	c.Trial = 0
	walk("", reflect.ValueOf(c))
	return out
}

// The context a workflow states for the simulated model restates the
// request and adds nothing to it: for every kind of call the workflows
// make, every string of the context is in the text the request sends
// (system prompt, messages, tool calls and results, tool declarations),
// so that sim cannot answer from anything a real model would not read —
// no ground truth, no answer, no map name or observation count the
// prompt does not show.
func TestContextIsInThePrompt(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays every workflow of every track")
	}
	reqs := workflowCalls(t)
	kinds := map[string]int{}
	bad := map[string][]string{} // kind → first problems
	for i, req := range reqs {
		cc := req.Context
		if cc == nil {
			t.Fatalf("request %d carries no context: %.300q", i, sent(req))
		}
		k := callKind(cc)
		kinds[k]++
		lv := reflect.ValueOf(*cc)
		for field, valid := range labels {
			if s := lv.FieldByName(field).String(); !slices.Contains(valid, s) {
				t.Errorf("%s: %s %q is not one of %q", k, field, s, valid)
			}
		}
		if miss := missing(cc, sent(req)); len(miss) > 0 && len(bad[k]) < 5 {
			bad[k] = append(bad[k], miss...)
		}
	}
	for k, miss := range bad {
		t.Errorf("%s: the context holds what the request does not send:\n\t%s", k, strings.Join(miss[:min(len(miss), 8)], "\n\t"))
	}
	// Every kind of call the workflows make was seen, so the check above
	// covered them all.
	for _, want := range []string{
		"tabletop/plan/tool_calls", "tabletop/plan/json", "tabletop/plan/program", "tabletop/classify/json", "tabletop/answer/tool_calls",
		"tabletop/perceive/json", "tabletop/perceive/json/nodes",
		"household/plan/tool_calls", "household/reflect/text",
		"household/reflect/text/key_rules", "household/reflect/text/experience", "household/reflect/text/lesson",
		"household/reflect/text/ambiguity", "household/reflect/text/plan",
		"semmap/plan/json/certainty", "semmap/plan/json/uncertainty", "semmap/reflect/text/certainty", "semmap/reflect/text/uncertainty",
		"semmap/refine/json/certainty", "semmap/refine/json/uncertainty", "semmap/choose/text/certainty", "semmap/choose/text/uncertainty",
	} {
		if kinds[want] == 0 {
			t.Errorf("no call of kind %s was made; seen: %v", want, kinds)
		}
	}
	t.Logf("%d calls of %d kinds: %v", len(reqs), len(kinds), kinds)
}
