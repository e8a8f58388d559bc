package reports

import "github.com/ambibench/ambibench/results"

// testTracks are what the three built-in tracks' records get, as their
// packages under bench/ declare them (the results packages import none of
// them); the CLI's report tests read the tracks' own.
var testTracks = map[string]Track{
	"tabletop": {Sections: []Section{SectionSingleRobot, SectionPartialObservability, SectionRobustness, SectionRates, SectionCost, SectionAblations("sgcot", "SG-CoT ablations"), SectionSceneSize},
		Baseline: "sgcot",
		Plots:    []Plot{PlotRates, PlotSceneSize}, Noise: []string{"fog"}, TwoRobotFamilies: []string{"handover"}},
	"household": {Sections: []Section{SectionRates, SectionCost, SectionTrials, SectionReflections, testDyRefCut.Section()}, Baseline: "reflexion", SuccessByTrial: true, Plots: []Plot{PlotTrials},
		PairedNote: "On the household track success is SR@k, k the most trials any game played (the trials allowed, when some game used them all), as in Success by trial; by default the household agents are compared with reflexion."},
	"semmap": {Sections: []Section{SectionTopK, SectionMapSize, SectionOverReflection("baseline"), SectionCost}, Plots: []Plot{PlotMapSize}},
}

// testDyRefCut is DyRef's cut as bench/household declares it.
var testDyRefCut = TrialCut{
	Name:  "dyref",
	Title: "DyRef's cut",
	Games: "As the DyRef paper reports ALFWorld: the clear games (perturbation none) of the evaluation split less the pick-two type (pick_two_obj_and_place).",
	Trial: 4,
	Keep:  func(r results.Record) bool { return r.Family != "pick_two_obj_and_place" && r.Perturbation == "none" },
}
