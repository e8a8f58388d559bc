package models

import "strings"

// NameOf returns the name the model a spec opens carries (its Name, the
// model of every record and recording it makes) without opening it, and
// whether the spec says it: every spec but replay:DIR, whose name is in
// its recordings, and a spec Open would refuse. The name is not always
// the spec: a record:DIR=SPEC model is named as SPEC's, a live model's
// context= option is no part of its name, and replay:DIR=MODEL is MODEL.
func NameOf(spec string) (string, bool) {
	spec = strings.TrimSpace(spec)
	if Check(spec) != nil {
		return "", false
	}
	kind, rest, _ := strings.Cut(spec, ":")
	switch kind {
	case "record":
		_, inner, _ := strings.Cut(rest, "=")
		return NameOf(inner)
	case "replay":
		_, model, _ := replayArgs(rest, specError(spec))
		return model, model != ""
	case "openai", "gemini", "anthropic":
		model, _, _, err := liveOptions(spec, rest, optContext, optDetail, optMediaResolution)
		if err != nil {
			return "", false
		}
		return specName(kind, model, rest), true
	}
	return spec, true
}
