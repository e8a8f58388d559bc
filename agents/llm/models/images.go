package models

import (
	"strings"
)

// optImages is the option of every live spec that says whether the model
// takes images: "openai:MODEL?images=0" for a text-only model. Absent, a
// model is taken to take them, as every backend can send them.
const optImages = "images"

// TakesImages reports whether the model a spec (or a model's Name) names
// takes images: false only when the spec says images=0 (or no, false),
// seen through a record:DIR=SPEC. The simulated model takes them (it
// counts their tokens and reads no pixels); a replay takes what its
// recordings hold. A spec that cannot be read is not refused here: the
// model's opening does that.
func TakesImages(spec string) bool {
	spec = strings.TrimSpace(spec)
	kind, rest, _ := strings.Cut(spec, ":")
	switch kind {
	case "record":
		if _, inner, ok := strings.Cut(rest, "="); ok {
			return TakesImages(inner)
		}
		return true
	case "replay":
		if _, model, err := replayArgs(rest, specError(spec)); err == nil && model != "" {
			return TakesImages(model)
		}
		return true
	case "sim":
		return true
	}
	_, query, _ := strings.Cut(rest, "?")
	for _, kv := range strings.Split(query, "&") {
		if key, value, _ := strings.Cut(kv, "="); key == optImages {
			switch strings.ToLower(value) {
			case "0", "false", "no":
				return false
			}
		}
	}
	return true
}
