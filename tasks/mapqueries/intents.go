package mapqueries

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// A query set with intents is a queries.yaml with a third section,
// intents:, that gives each query the reading its author meant, so that a
// parser's reading of the text can be scored against it over any map
// (the truth of a query is scenes.ResolveObjects of its intent). The
// project's own wordings (testdata/wording) are such files: one intent
// list in two wordings, to measure how far the reference resolver's
// reading generalises past the wording it was tuned on.

// IntentQuery is a query with its intended reading.
type IntentQuery struct {
	Query
	Intent scenes.ObjectQuery
}

// ParseIntentQueries reads a query set with intents: queries:, the
// optional types: and difficulty: sections (as ParseQueries), and
// intents:, which must give every query one reading and no other.
func ParseIntentQueries(data []byte, name string) ([]IntentQuery, error) {
	secs, err := parseYAMLSections(data, name)
	if err != nil {
		return nil, err
	}
	intents := secs.get("intents")
	if _, ok := secs.entries["intents"]; !ok {
		return nil, fmt.Errorf("%s: no intents: section", name)
	}
	qs, err := queriesOf(secs, data, name, "intents")
	if err != nil {
		return nil, err
	}
	out := make([]IntentQuery, len(qs))
	have := map[string]bool{}
	for _, e := range intents {
		i := slices.IndexFunc(qs, func(q Query) bool { return q.ID == e.Key })
		if i < 0 {
			return nil, fmt.Errorf("%s:%d: intents: %q is not a query", name, e.Line, e.Key)
		}
		q, err := ParseIntent(e.Value)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: intents: %s: %v", name, e.Line, e.Key, err)
		}
		out[i], have[e.Key] = IntentQuery{Query: qs[i], Intent: q}, true
	}
	for _, q := range qs {
		if !have[q.ID] {
			return nil, fmt.Errorf("%s: query %q has no intent", name, q.ID)
		}
	}
	return out, nil
}

// ParseIntent reads an intended reading: "key=value" parts joined by
// ";", list values joined by "|" ("affordance=sit; exclude=couch|bed";
// "classes=book; on=shelf"). Keys are classes, affordance, exclude,
// exclude_affordance and one relation of near, on or far naming its
// anchor class. Classes and affordances must be the vocabulary's, so a
// typo in an intent cannot make a query unanswerable unseen; and
// something must be wanted, as ParseObjectQuery requires.
func ParseIntent(s string) (scenes.ObjectQuery, error) {
	var q scenes.ObjectQuery
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ";") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" || val == "" {
			return scenes.ObjectQuery{}, fmt.Errorf("part %q: want key=value", strings.TrimSpace(part))
		}
		if seen[key] {
			return scenes.ObjectQuery{}, fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		var list []string
		for _, v := range strings.Split(val, "|") {
			list = append(list, strings.TrimSpace(v))
		}
		switch key {
		case "classes", "exclude", "near", "on", "far":
			for _, c := range list {
				if !scenes.IsMapClass(c) {
					return scenes.ObjectQuery{}, fmt.Errorf("%s: %q is not a class of the vocabulary", key, c)
				}
			}
		case "affordance", "exclude_affordance":
			if len(list) != 1 || !isAffordance(list[0]) {
				return scenes.ObjectQuery{}, fmt.Errorf("%s: %q is not an affordance", key, val)
			}
		default:
			return scenes.ObjectQuery{}, fmt.Errorf("unknown key %q (want classes, affordance, exclude, exclude_affordance, near, on or far)", key)
		}
		switch key {
		case "classes":
			q.Classes = list
		case "exclude":
			q.Exclude = list
		case "affordance":
			q.Affordance = list[0]
		case "exclude_affordance":
			q.ExcludeAffordance = list[0]
		default:
			if q.Relation != "" {
				return scenes.ObjectQuery{}, fmt.Errorf("two relations (%s and %s)", q.Relation, key)
			}
			if len(list) != 1 {
				return scenes.ObjectQuery{}, fmt.Errorf("%s: one anchor class, got %d", key, len(list))
			}
			q.Relation, q.Anchor = map[string]string{"near": scenes.MapRelNear, "on": scenes.MapRelOn, "far": scenes.MapRelFar}[key], list[0]
		}
	}
	if len(q.Classes) == 0 && q.Affordance == "" {
		return scenes.ObjectQuery{}, fmt.Errorf("%q wants nothing (give classes or an affordance)", s)
	}
	return q, nil
}

func isAffordance(name string) bool {
	return slices.ContainsFunc(scenes.Affordances(), func(a scenes.Affordance) bool { return a.Name == name })
}
