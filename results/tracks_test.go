package results

// testTracks are the report sections of the three built-in tracks, as
// their packages under bench/ declare them (results imports none of
// them); the CLI's report tests read the tracks' own.
var testTracks = map[string]TrackReport{
	"tabletop": {Sections: []Section{SectionSingleRobot, SectionPartialObservability, SectionRobustness, SectionRates, SectionCost, SectionAblations, SectionSceneSize},
		Plots: []Plot{PlotRates, PlotSceneSize}, Noise: []string{"fog"}, TwoRobotFamilies: []string{"handover"}},
	"household": {Sections: []Section{SectionRates, SectionCost, SectionTrials, SectionReflections, SectionDyRefCut}, Baseline: "reflexion", SuccessByTrial: true, Plots: []Plot{PlotTrials},
		PairedNote: "On the household track success is SR@k, k the most trials any game played (the trials allowed, when some game used them all), as in Success by trial; by default the household agents are compared with reflexion."},
	"semmap": {Sections: []Section{SectionTopK, SectionMapSize, SectionOverReflection, SectionCost}, Plots: []Plot{PlotMapSize}},
}
