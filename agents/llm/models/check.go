package models

import (
	"strings"
)

// Check reads a spec as Open would, without opening anything: no key is
// looked up, no cassette directory is touched, nothing is dialled. It is
// for a spec that a run will not open (no agent of it uses a model), so
// that a spec Open would refuse is refused there too instead of passing
// unseen. Keys and endpoints are Open's to check.
func Check(spec string) error {
	spec = strings.TrimSpace(spec)
	kind, rest, hasRest := strings.Cut(spec, ":")
	bad := specError(spec)
	switch kind {
	case "":
		return bad(unknownKind(kind))
	case "sim":
		if _, err := simProfile(rest, hasRest, bad); err != nil {
			return err
		}
	case "openai", "gemini":
		var extra []string
		if kind == "openai" {
			extra = append(extra, optContext, optDetail)
		} else {
			extra = append(extra, optMediaResolution)
		}
		model, _, opts, err := liveOptions(spec, rest, extra...)
		if err != nil {
			return err
		}
		if model == "" {
			return bad(kind + " needs a model name, as in " + map[string]string{"openai": "openai:gpt-4o-mini", "gemini": "gemini:gemini-2.5-flash"}[kind])
		}
		if _, err := opts.boolean(optContext); err != nil {
			return err
		}
		if _, err := imageDetail(opts); err != nil {
			return err
		}
		if _, err := mediaResolution(opts); err != nil {
			return err
		}
	case "anthropic":
		model, _, opts, err := liveOptions(spec, rest)
		if err != nil {
			return err
		}
		if model == "" {
			return bad(anthropicNoName)
		}
		return anthropicSettings(opts)
	case "record":
		dir, inner, ok := strings.Cut(rest, "=")
		if !ok || dir == "" || inner == "" {
			return bad("record takes DIR=SPEC, as in record:cassettes=openai:gpt-4o-mini")
		}
		return Check(inner)
	case "replay":
		_, _, err := replayArgs(rest, bad)
		return err
	default:
		return bad(unknownKind(kind))
	}
	return nil
}

// replayArgs reads replay's DIR or DIR=MODEL, split at the first '=' (as
// record:DIR=SPEC is: a model's name may hold one, a DIR may not). MODEL,
// the name the recordings were made under, spares reading every recording
// for it and picks one of a store that holds several.
func replayArgs(rest string, bad func(string) error) (dir, model string, err error) {
	dir, model, named := strings.Cut(rest, "=")
	if dir == "" || (named && model == "") {
		return "", "", bad("replay takes DIR or DIR=MODEL, as in replay:cassettes or replay:cassettes=openai:gpt-4o-mini")
	}
	return dir, model, nil
}
