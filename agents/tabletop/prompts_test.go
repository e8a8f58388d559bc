package tabletop

import (
	"flag"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Every prompt template, rendered with fixed data, matches its golden file
// under testdata/ (rewrite with -update). A prompt change shows in review
// as a diff of the text a model reads.
func TestPromptsGolden(t *testing.T) {
	base := promptData{Instruction: "Put the red block in the blue bowl.", Robot: "robot1", Partner: "robot2",
		GraphJSON: `{"nodes":[…],"edges":[…]}`, Places: strings.Join(scenes.PlaceNames, ", "),
		Message: "Please put red block 1 in the shared workspace."}
	alone := base
	alone.Partner = ""
	noGraph := base
	noGraph.GraphJSON = ""
	sg := sgcotPrompt{promptData: noGraph, Objects: "red block 1, blue bowl 1", AttrKeys: "color, size, type",
		Relations: strings.Join(scenes.Relations, ", "), MaxTurns: sgcotMaxTurns}
	sgFull := sg
	sgText := sgcotTextPrompt{sgcotPrompt: sg, Requests: strings.Join(sgcotTextRequests(true), ", ")}
	sgTextAlone := sgcotTextPrompt{sgcotPrompt: sg, Requests: strings.Join(sgcotTextRequests(false), ", ")}
	sgTextAlone.Partner = ""
	sgTextFirst := sgText
	sgTextFirst.AskRobotFirst = true
	sgFull.promptData = base
	sgNoEdges := sg
	sgNoEdges.Relations = ""
	shown := listed(detections([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0.15, -0.6),
	}))
	shown[1].Workspace = scenes.RegionRobot2
	cl := claraPrompt{Instruction: base.Instruction, Robot: "robot1", Partner: "robot2",
		Objects: objectLines(shown), Frame: frameNote,
		Places: base.Places, Plans: `3× [{"pick":"red block 1","place":"blue bowl 1"}]` + "\n" + `2× [{"pick":"red block 1","place":"middle"}]`,
		Examples: written(claraExamples[:claraShots], false)}
	clAlone := cl
	clAlone.Partner = ""
	noGraph.GraphJSON = ""
	list := listData{promptData: noGraph, Objects: objectLines(shown), Frame: frameNote}
	listAlone := list
	listAlone.Partner = ""
	listFeedback := list
	listFeedback.Feedback = true
	seen := seenNodes([]llm.ImageObject{
		{Name: "red block", Color: "red", Type: "block", Box: [4]int{412, 180, 505, 241}},
		{Name: "blue bowl", Color: "blue", Type: "bowl", Box: [4]int{150, 520, 310, 690}},
	})
	seeingGraph := perceivePrompt{Robot: "robot1", Objects: boxLines(seen), Edges: true}
	seeingNodes := seeingGraph
	seeingNodes.Edges = false
	// --ask-robot-first: the two-robot prompts also say to ask the other
	// robot before telling the person anything is absent.
	baseFirst := base
	baseFirst.AskRobotFirst = true
	sgFirst := sg
	sgFirst.AskRobotFirst = true
	listFirst := list
	listFirst.AskRobotFirst = true
	progFirst := progPromptGolden(t, true)
	progFirst.AskRobotFirst = true
	for _, tc := range []struct {
		golden, template string
		data             any
	}{
		{"direct_system_partner.txt", "direct_system.tmpl", base},
		{"direct_system_alone.txt", "direct_system.tmpl", alone},
		{"direct_system_partner_ask_first.txt", "direct_system.tmpl", baseFirst},
		{"direct_user.txt", "direct_user.tmpl", base},
		{"answer_user.txt", "answer_user.tmpl", base},
		{"sgcot_system_partner.txt", "sgcot_system.tmpl", sg},
		{"sgcot_system_partner_ask_first.txt", "sgcot_system.tmpl", sgFirst},
		{"sgcot_text_system_partner.txt", "sgcot_text_system.tmpl", sgText},
		{"sgcot_text_system_alone.txt", "sgcot_text_system.tmpl", sgTextAlone},
		{"sgcot_text_system_partner_ask_first.txt", "sgcot_text_system.tmpl", sgTextFirst},
		{"sgcot_text_forced.txt", "sgcot_text_forced.tmpl", sgText},
		{"sgcot_user.txt", "sgcot_user.tmpl", sg},
		{"sgcot_user_full_graph.txt", "sgcot_user.tmpl", sgFull},
		{"sgcot_user_no_edges.txt", "sgcot_user.tmpl", sgNoEdges},
		{"forced_decision.txt", "forced_decision.tmpl", sg},
		{"graph_withdrawn.txt", "graph_withdrawn.tmpl", sg},
		{"clara_sample_partner.txt", "clara_sample.tmpl", cl},
		{"clara_sample_alone.txt", "clara_sample.tmpl", clAlone},
		{"clara_classify.txt", "clara_classify.tmpl", cl},
		{"clara_act.txt", "clara_act.tmpl", cl},
		{"progprompt_system_partner.txt", "progprompt_system.tmpl", progPromptGolden(t, true)},
		{"progprompt_system_alone.txt", "progprompt_system.tmpl", progPromptGolden(t, false)},
		{"progprompt_system_partner_ask_first.txt", "progprompt_system.tmpl", progFirst},
		{"progprompt_user_partner.txt", "progprompt_user.tmpl", progPromptGolden(t, true)},
		{"progprompt_user_alone.txt", "progprompt_user.tmpl", progPromptGolden(t, false)},
		{"progprompt_fix.txt", "progprompt_fix.tmpl", progPromptFixGolden(t)},
		{"inner_monologue_system_partner.txt", "inner_monologue_system.tmpl", list},
		{"inner_monologue_system_alone.txt", "inner_monologue_system.tmpl", listAlone},
		{"inner_monologue_system_partner_ask_first.txt", "inner_monologue_system.tmpl", listFirst},
		{"inner_monologue_user.txt", "inner_monologue_user.tmpl", list},
		{"list_answer_user.txt", "list_answer_user.tmpl", list},
		{"list_answer_user_feedback.txt", "list_answer_user.tmpl", listFeedback},
		{"progprompt_answer.txt", "progprompt_answer.tmpl", progAnswerGolden(t)},
		{"detect_image.txt", "detect_image.tmpl", struct{ Robot string }{"robot1"}},
		{"perceive_image.txt", "perceive_image.tmpl", seeingGraph},
		{"perceive_image_nodes.txt", "perceive_image.tmpl", seeingNodes},
	} {
		got, err := render(tc.template, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		agenttest.GoldenPrompt(t, tc.template, tc.golden, got, *update)
	}
}

// The golden prompts are what a real model reads, byte for byte; none of
// them may carry a machine-readable copy of the context (the fenced
// "```ambibench" block the prompts once ended in) or mention one.
func TestGoldenPromptsHoldNoBlock(t *testing.T) { agenttest.PromptsHoldNoBlock(t) }
