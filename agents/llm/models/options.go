package models

import (
	"fmt"
	"slices"
	"strings"
)

// A live spec may end in options, as a URL ends in its query:
//
//	openai:MODEL?context=1
//	openai:MODEL?key=value&key=value
//
// Each backend says which keys it takes; an unknown, repeated or empty key
// is an error that names it and lists the valid ones, since an option
// that is silently ignored would change a run without saying so. Values
// are taken as written (no URL unescaping), so a model name may hold any
// character but "?".

// specOptions are the options of one spec, by key.
type specOptions struct {
	spec   string // the whole spec, for errors
	values map[string]string
}

// cutOptions splits rest ("MODEL" or "MODEL?k=v&…") into the model name and
// its options, refusing keys that are not in valid. spec is the whole spec,
// for errors.
func cutOptions(spec, rest string, valid ...string) (string, specOptions, error) {
	name, query, has := strings.Cut(rest, "?")
	opts := specOptions{spec: spec, values: map[string]string{}}
	if !has {
		return name, opts, nil
	}
	if query == "" {
		return "", opts, fmt.Errorf("model spec %q: nothing after \"?\"; write options as key=value&key=value (%s)", spec, validKeys(valid))
	}
	for _, kv := range strings.Split(query, "&") {
		key, value, ok := strings.Cut(kv, "=")
		switch {
		case key == "":
			return "", opts, fmt.Errorf("model spec %q: option %q has no key; write options as key=value&key=value (%s)", spec, kv, validKeys(valid))
		case !slices.Contains(valid, key):
			return "", opts, fmt.Errorf("model spec %q: unknown option %q (%s)", spec, key, validKeys(valid))
		case !ok:
			return "", opts, fmt.Errorf("model spec %q: option %q has no value; write %s=VALUE", spec, key, key)
		}
		if _, dup := opts.values[key]; dup {
			return "", opts, fmt.Errorf("model spec %q: option %q is given twice", spec, key)
		}
		opts.values[key] = value
	}
	return name, opts, nil
}

// validKeys says which keys a backend takes, for errors.
func validKeys(valid []string) string {
	if len(valid) == 0 {
		return "this kind of model takes no options"
	}
	return "valid options: " + strings.Join(valid, ", ")
}

// boolean reads a yes/no option: 1, true, yes or 0, false, no; absent is
// false.
func (o specOptions) boolean(key string) (bool, error) {
	v, ok := o.values[key]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(v) {
	case "1", "true", "yes":
		return true, nil
	case "0", "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("model spec %q: option %s=%q: want 1 or 0 (or true, false, yes, no)", o.spec, key, v)
}

// oneOf reads an option that takes one of the values in valid; absent is
// "".
func (o specOptions) oneOf(key string, valid ...string) (string, error) {
	v, ok := o.values[key]
	if !ok || slices.Contains(valid, v) {
		return v, nil
	}
	return "", fmt.Errorf("model spec %q: option %s=%q: want %s", o.spec, key, v, strings.Join(valid, ", "))
}
