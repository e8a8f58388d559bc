package household

import "testing"

// The text-shape variants run on the simulated model as the tool-calling
// ones do: with the perfect model, react-text plays every game exactly
// as react does — the same outcome, the same commands counted, the same
// questions — through "> " lines alone ("ask TAG: question" to ask), and
// never lists the admissible commands, which its shape does not offer.
func TestHouseholdTextShapeWithPerfectModel(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"react", "react-text"}, {"reflexion", "reflexion-text"}} {
		tools := runHouseholdModel(t, pair[0], "sim:perfect", "none", "multiplicity")
		text := runHouseholdModel(t, pair[1], "sim:perfect", "none", "multiplicity")
		if len(tools) != len(text) {
			t.Fatalf("%d and %d records", len(tools), len(text))
		}
		for i, r := range text {
			o := tools[i]
			if r.Success != o.Success || r.SolvedTrial != o.SolvedTrial || r.Steps != o.Steps || r.Questions != o.Questions || r.TagCorrect != o.TagCorrect || r.Error != "" {
				t.Errorf("%s/%s game %d: %s success %v at trial %d in %d steps, %d questions (%d right), error %q; %s: %v at %d in %d, %d (%d)",
					r.Family, r.Perturbation, r.Episode, pair[1], r.Success, r.SolvedTrial, r.Steps, r.Questions, r.TagCorrect, r.Error,
					pair[0], o.Success, o.SolvedTrial, o.Steps, o.Questions, o.TagCorrect)
			}
			if r.ToolCalls["admissible_commands"] != 0 {
				t.Errorf("%s/%s game %d: %s listed the admissible commands", r.Family, r.Perturbation, r.Episode, pair[1])
			}
		}
	}
}
