package simmodel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Profile sets the simulated model's error rates, each a probability per
// decision where it can apply.
type Profile struct {
	Name         string
	Hallucinate  float64
	Multiplicity float64
	Absence      float64
	Vague        float64
	Negation     float64
	Tag          float64
	Malformed    float64
	// Household slips: Skip forgets to heat, cool or clean before putting;
	// Loop sends the previous command again instead of the next one.
	Skip float64
	Loop float64
	// OverReflect (semmap) is the chance that reviewing a sound answer
	// finds fault with it anyway, so that the refinement spoils it.
	OverReflect float64
	// Coord (tabletop) is not a rate but a spread: the standard deviation,
	// in metres, of the model's reading of each printed coordinate of an
	// object list (see coords.go). A relation it works out from the
	// positions is misread only when the true offsets are close to a tie.
	Coord float64
	// The visual errors of a detection call (llm.CallDetect), each a base
	// rate that the number of objects in view and each object's
	// occlusion and size scale (doc.go states how): Miss leaves a
	// visible object out, ColorSwap names its colour as a close one,
	// Duplicate lists it twice, the second box shifted, and Phantom adds
	// an object that is not there. Growth does not scale them.
	Miss      float64
	ColorSwap float64
	Duplicate float64
	Phantom   float64
	// Growth is the relative increase of every rate per 1,000 prompt
	// tokens: a rate r becomes r·(1 + Growth·tokens/1000), at most 1,
	// tokens being those the request sends and those of its context as
	// JSON (which the prompts carried in a fenced block when the rates
	// were set).
	Growth float64
	// Salt mixes a number into every random draw of the model, so that two
	// models with the same rates and different salts make their errors
	// independently of each other: the same episodes, the same error
	// rates, other episodes hit. Salt 0 is the model as it always drew.
	// It is set with salt=N in a spec ("sim:salt=2", "sim:weak,salt=3").
	Salt uint64
}

// The named profiles.
var (
	Perfect = Profile{Name: "perfect"}
	Default = Profile{Name: "default", Hallucinate: 0.03, Multiplicity: 0.15, Absence: 0.10, Vague: 0.08,
		Negation: 0.10, Tag: 0.05, Malformed: 0.02, Skip: 0.10, Loop: 0.01, OverReflect: 0.10, Coord: 0.01, Growth: 0.10,
		Miss: 0.03, ColorSwap: 0.03, Duplicate: 0.02, Phantom: 0.02}
	Weak = Profile{Name: "weak", Hallucinate: 0.10, Multiplicity: 0.45, Absence: 0.35, Vague: 0.30,
		Negation: 0.35, Tag: 0.15, Malformed: 0.08, Skip: 0.30, Loop: 0.03, OverReflect: 0.25, Coord: 0.03, Growth: 0.25,
		Miss: 0.10, ColorSwap: 0.10, Duplicate: 0.06, Phantom: 0.08}
)

// rateNames are the keys of an explicit profile, in a fixed order.
var rateNames = []string{"hallucinate", "multiplicity", "absence", "vague", "negation", "tag", "malformed", "skip", "loop", "overreflect", "coord", "miss", "colorswap", "duplicate", "phantom", "growth"}

func (p *Profile) rate(name string) *float64 {
	switch name {
	case "hallucinate":
		return &p.Hallucinate
	case "multiplicity":
		return &p.Multiplicity
	case "absence":
		return &p.Absence
	case "vague":
		return &p.Vague
	case "negation":
		return &p.Negation
	case "tag":
		return &p.Tag
	case "malformed":
		return &p.Malformed
	case "skip":
		return &p.Skip
	case "loop":
		return &p.Loop
	case "overreflect":
		return &p.OverReflect
	case "coord":
		return &p.Coord
	case "miss":
		return &p.Miss
	case "colorswap":
		return &p.ColorSwap
	case "duplicate":
		return &p.Duplicate
	case "phantom":
		return &p.Phantom
	case "growth":
		return &p.Growth
	}
	return nil
}

// ParseProfile reads the part of a spec after "sim:": "" (the default
// profile), "perfect", "weak", "default", or explicit rates
// "hallucinate=0.1,tag=0.3" (unset rates are zero), any of them with a
// stream salt "salt=N" among its comma-separated items ("salt=2",
// "weak,salt=3", "tag=0.3,salt=1"), which changes which draws come out
// and not their rates (see [Profile.Salt]).
func ParseProfile(s string) (Profile, error) {
	rest, salt, err := cutSalt(s)
	if err != nil {
		return Profile{}, err
	}
	p, err := parseRates(rest)
	if err != nil {
		return Profile{}, err
	}
	p.Salt = salt
	return p, nil
}

// cutSalt takes the salt=N items out of a profile, keeping the others in
// order. Two salts, or one that is not a non-negative integer, are errors.
func cutSalt(s string) (rest string, salt uint64, err error) {
	if !strings.Contains(s, "salt") {
		return s, 0, nil
	}
	var keep []string
	seen := false
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) != "salt" {
			keep = append(keep, kv)
			continue
		}
		if seen {
			return "", 0, fmt.Errorf("sim profile %q: salt given twice", s)
		}
		seen = true
		salt, err = strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return "", 0, fmt.Errorf("sim profile %q: salt=%s: want a non-negative integer", s, v)
		}
	}
	return strings.Join(keep, ","), salt, nil
}

func parseRates(s string) (Profile, error) {
	switch s {
	case "", "default":
		return Default, nil
	case "perfect":
		return Perfect, nil
	case "weak":
		return Weak, nil
	}
	p := Profile{Name: s}
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Profile{}, fmt.Errorf("sim profile %q: %q is not name=rate; use perfect, weak, or rates %s", s, kv, strings.Join(rateNames, ", "))
		}
		k = strings.TrimSpace(k)
		r := p.rate(k)
		if r == nil {
			return Profile{}, fmt.Errorf("sim profile %q: unknown rate %q (have %s)", s, k, strings.Join(rateNames, ", "))
		}
		// A rate given twice would leave the reader guessing which one
		// the records were made with; the openai spec refuses a repeated
		// option for the same reason.
		if seen[k] {
			return Profile{}, fmt.Errorf("sim profile %q: %s is given twice", s, k)
		}
		seen[k] = true
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		// NaN passes every comparison, so the test is that f is in the
		// range, not that it is outside it. Growth is a relative increase,
		// not a probability: any finite number from 0.
		switch {
		case k == "growth" && (err != nil || !(f >= 0) || math.IsInf(f, 1)):
			return Profile{}, fmt.Errorf("sim profile %q: %s=%s: want a finite number ≥ 0", s, k, v)
		case k != "growth" && (err != nil || !(f >= 0 && f <= 1)):
			return Profile{}, fmt.Errorf("sim profile %q: %s=%s: want a number in [0, 1]", s, k, v)
		}
		*r = f
	}
	return p, nil
}
