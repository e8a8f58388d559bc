package mapqueries

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A dataset folder may hold a description, DescriptionFile, that says what
// the maps, queries and responses cannot: the rule by which its truth
// counts two objects near each other, which a prompt may state only when
// the dataset defines near that way, and where each map comes from (the
// agentic-workflows paper's maps come from ScanNet and SceneNN, and its
// results are split by origin). Both are optional; without the file a
// dataset defines neither.
//
//	truth:
//	  near: "1.5"            # metres between two objects' centres
//	origins:
//	  scene0011_00: "ScanNet"
//	  "025": "SceneNN"
//
// origins:, when given, names the origin of every map of the dataset.

// DescriptionFile is the dataset description's file name.
const DescriptionFile = "dataset.yaml"

// Description is what a dataset's description says.
type Description struct {
	// Near is the distance in metres within which the truth counts two
	// objects' centres near each other; 0 when the dataset does not say.
	Near float64
	// Origins are the maps' origins by map name ("ScanNet"); nil when
	// the dataset does not say.
	Origins map[string]string
	// OriginLines are the lines of the origins: entries, by map name, for
	// errors a reader finds once it knows the maps.
	OriginLines map[string]int
}

// ParseDescription reads a dataset description; name prefixes errors.
func ParseDescription(data []byte, name string) (Description, error) {
	secs, err := parseYAMLSections(data, name)
	if err != nil {
		return Description{}, err
	}
	var d Description
	for _, s := range secs.names {
		if s != "truth" && s != "origins" {
			return Description{}, fmt.Errorf("%s:%d: unknown section %q; want truth or origins", name, sectionLine(data, s), s)
		}
	}
	for _, e := range secs.get("truth") {
		if e.Key != "near" {
			return Description{}, fmt.Errorf("%s:%d: truth: unknown rule %q; want near", name, e.Line, e.Key)
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(e.Value), " m"), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return Description{}, fmt.Errorf("%s:%d: truth: near: %q is not a distance; want metres between two objects' centres, a number above 0 (\"1.5\")", name, e.Line, e.Value)
		}
		d.Near = v
	}
	if es, ok := secs.entries["origins"]; ok {
		if len(es) == 0 {
			return Description{}, fmt.Errorf("%s:%d: origins: empty; give every map's origin, or leave the section out", name, sectionLine(data, "origins"))
		}
		d.Origins, d.OriginLines = map[string]string{}, map[string]int{}
		for _, e := range secs.get("origins") {
			v := strings.TrimSpace(e.Value)
			if v == "" {
				return Description{}, fmt.Errorf("%s:%d: origins: %s: empty; want where the map comes from (\"ScanNet\")", name, e.Line, e.Key)
			}
			d.Origins[e.Key], d.OriginLines[e.Key] = v, e.Line
		}
	}
	return d, nil
}

// checkOrigins holds origins to the maps: every origin names a map, and
// every map has one. name prefixes errors.
func (d Description) checkOrigins(mapNames []string, name string) error {
	if d.Origins == nil {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(d.Origins)) { // sorted: the same file gives the same error
		if slices.Contains(mapNames, k) {
			continue
		}
		if line := d.OriginLines[k]; line > 0 {
			return fmt.Errorf("%s:%d: origins: %q is not a map of the dataset", name, line, k)
		}
		return fmt.Errorf("%s: origins: %q is not a map of the dataset", name, k)
	}
	for _, m := range mapNames {
		if _, ok := d.Origins[m]; !ok {
			return fmt.Errorf("%s: origins: map %s has none; origins: gives every map's or none", name, m)
		}
	}
	return nil
}

// EncodeDescription writes a dataset description: the near rule when
// near > 0, and the origins of maps, in that order, when origins is not
// nil.
func EncodeDescription(near float64, origins map[string]string, maps []string) []byte {
	entries := map[string][]yamlEntry{}
	if near > 0 {
		entries["truth"] = []yamlEntry{{Key: "near", Value: strconv.FormatFloat(near, 'f', -1, 64)}}
	}
	for _, m := range maps {
		if o, ok := origins[m]; ok {
			entries["origins"] = append(entries["origins"], yamlEntry{Key: m, Value: o})
		}
	}
	return writeYAMLSections("ambibench semantic-map dataset description: the truth's near rule, in metres\nbetween two objects' centres, and each map's origin.",
		[]string{"truth", "origins"}, entries)
}
