package simmodel

import (
	"encoding/json"

	"github.com/ambibench/ambibench/agents/llm"
)

// CountTokens estimates a request's input tokens as a quarter of its
// characters, the usual rule of thumb for English text and JSON, and each
// image as llm.ImageTokens of its size (410 at 640×480). It is what
// the simulated model reports as input tokens; its errors grow with these
// and the context's tokens (readTokens).
func CountTokens(req llm.Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, tc := range m.ToolCalls {
			n += len(tc.Name) + len(tc.Args)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	images := 0
	for _, m := range req.Messages {
		for _, im := range m.Images {
			images += llm.ImageTokens(im.Width, im.Height)
		}
	}
	return (n+3)/4 + images
}

// readTokens is the size, in tokens, of a call context written out as
// JSON, as the prompts once carried it in a fenced block: the profiles'
// rates were set with those tokens counted, so the rates grow with them
// still, and a rate means what it meant. They are not input tokens: a
// backend sends none of them, and Reply.InputTokens (and so tokens/op)
// counts only what the request sends.
func readTokens(cc *llm.CallContext) int {
	if cc == nil {
		return 0
	}
	// The same context counts the same whether it came in process or over
	// serve-sim's wire, which sets the version.
	c := *cc
	c.Version, c.Play = llm.ContextVersion, nil
	// The detections, a crowded table's bulk, are measured by their own
	// writer (the bytes of json.Marshal) and not through reflection; the
	// rest always has a field before them (role, track, format).
	ds := c.Detections
	c.Detections = nil
	// The image is read as an image, whatever the context says of what
	// it shows (Seen, InImage: for the simulated model, which reads no
	// pixels): its tokens, not the JSON of its boxes, which no prompt ever
	// carried and which would cost a marshal of every object per call.
	image := 0
	if c.ImageSize != ([2]int{}) {
		image = llm.ImageTokens(c.ImageSize[0], c.ImageSize[1])
	}
	c.Seen, c.InImage, c.ImageSize = nil, nil, [2]int{}
	data, err := json.Marshal(c)
	if err != nil {
		return 0 // a context holds strings, numbers and a graph of strings: it always encodes
	}
	n := len(data)
	if len(ds) > 0 {
		n += len(`,"detections":`) + len(llm.DetectionsJSON(ds))
	}
	const fence = len("```ambibench\n") + len("\n```")
	return (n+fence+3)/4 + image
}

func outputTokens(r llm.Reply) int {
	n := len(r.Text)
	for _, tc := range r.ToolCalls {
		n += len(tc.Name) + len(tc.Args)
	}
	return (n + 3) / 4
}
