package view

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

func TestParseMarkdown(t *testing.T) {
	md := "# Report\n\nSome text\non two lines.\n\n## Table\n\n| agent | SR |\n| --- | ---: |\n| a | 0.5 [0.1, 0.9] |\n| b<script> | 1 |\n\nCaption (`x.png`):\n\n![Plot](x.png)\n"
	got := parseMarkdown(md)
	if len(got) != 6 {
		t.Fatalf("%d blocks, want 6: %+v", len(got), got)
	}
	if got[0].Heading != 1 || got[0].Text != "Report" || got[2].Heading != 2 {
		t.Errorf("headings: %+v, %+v", got[0], got[2])
	}
	if got[1].Text != "Some text on two lines." {
		t.Errorf("paragraph %q", got[1].Text)
	}
	tbl := got[3]
	if !slices.Equal(tbl.Header, []string{"agent", "SR"}) || len(tbl.Rows) != 2 || tbl.Rows[1][0] != "b<script>" {
		t.Errorf("table %+v", tbl)
	}
	if got[5].Image != "x.png" || got[5].Alt != "Plot" {
		t.Errorf("image %+v", got[5])
	}
}

func TestParseMarkdownDetails(t *testing.T) {
	for _, tc := range []struct {
		why, md string
		want    []string // each block as D(summary), /D, T(rows) or P(text)
	}{
		{"compare's folded table opens and closes a <details>",
			"<details><summary>All 2 comparisons</summary>\n\n| a |\n| --- |\n| 1 |\n\n</details>\n",
			[]string{"D(All 2 comparisons)", "T(1)", "/D"}},
		{"a </details> with none open is text, so the page's tags stay balanced",
			"</details>\n", []string{"P(</details>)"}},
		{"a <details> left open is closed at the end",
			"<details><summary>x</summary>\ntext\n", []string{"D(x)", "P(text)", "/D"}},
		{"other HTML is text", "<script>alert(1)</script>\n", []string{"P(<script>alert(1)</script>)"}},
	} {
		var got []string
		for _, b := range parseMarkdown(tc.md) {
			switch {
			case b.Details != "":
				got = append(got, "D("+b.Details+")")
			case b.EndDetails:
				got = append(got, "/D")
			case b.Header != nil:
				got = append(got, fmt.Sprintf("T(%d)", len(b.Rows)))
			default:
				got = append(got, "P("+b.Text+")")
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q gives %q, want %q", tc.why, tc.md, got, tc.want)
		}
	}
}

func TestEpisodePage(t *testing.T) {
	for _, tc := range []struct {
		kept bool
		n    int
		want string
	}{
		{true, 7, "episodes/7.html"},
		{false, 7, "episodes/g-000.html#e7"},
		{false, 31199, "episodes/g-311.html#e31199"},
	} {
		if got := EpisodePage(tc.kept, tc.n); got != tc.want {
			t.Errorf("EpisodePage(%v, %d) = %q, want %q", tc.kept, tc.n, got, tc.want)
		}
	}
}

func TestLinkCells(t *testing.T) {
	recs := []results.Record{
		{Agent: "sgcot", Perturbation: "absence"},
		{Agent: "a b&c", Perturbation: "none"},
	}
	md := "| agent | none | absence | all |\n| --- | --- | --- | --- |\n" +
		"| sgcot | 1 | 0.5 | 0.7 |\n| a b&c | 1 | 1 | 1 |\n| sgcot (sim) | 1 | 1 | 1 |\n| all | 1 | 1 | 1 |\n\n" +
		"| perturbation | agent |\n| --- | --- |\n| absence | sgcot |\n"
	blocks := parseMarkdown(md)
	var seen tally
	for i := range recs {
		seen.add(&recs[i])
	}
	linkCells(blocks, seen.agents, seen.perts)
	for _, tc := range []struct {
		why        string
		table, row int
		col        int
		want       string
	}{
		{"an agent's row under a perturbation of the run links to that cell's failures", 0, 0, 2, "index.html#agent=sgcot&perturbation=absence&success=false"},
		{"a perturbation of the run that this agent has no record of still links (it has no failures to show)", 0, 0, 1, "index.html#agent=sgcot&perturbation=none&success=false"},
		{"the first column, the agent's name, is text", 0, 0, 0, ""},
		{`"all" is no perturbation: text`, 0, 0, 3, ""},
		{"names are escaped for the fragment", 0, 1, 1, "index.html#agent=a+b%26c&perturbation=none&success=false"},
		{"a row labelled agent (model) is no known agent: text", 0, 2, 1, ""},
		{`the "all" row is no agent: text`, 0, 3, 2, ""},
		{"a table with perturbations as rows and agents as columns is not linked", 1, 0, 1, ""},
	} {
		tbl := blocks[tc.table]
		if got := tbl.Link(tc.row, tc.col); got != tc.want {
			t.Errorf("%s: table %d cell (%d, %d) %q links to %q, want %q", tc.why, tc.table, tc.row, tc.col, tbl.Rows[tc.row][tc.col], got, tc.want)
		}
	}
}

// TestCellLinksInIndex writes a site and reads its index: a report cell
// is an <a> to the index's fragment, and app.js follows the fragment at
// load and when it changes.
func TestCellLinksInIndex(t *testing.T) {
	dir := t.TempDir()
	recs := []results.Record{{Suite: 1, Track: "tabletop", Family: "f", Perturbation: "absence", Agent: "sgcot", Outcome: results.OutcomeScored}}
	if _, err := Write(Run{Dir: dir, Records: Records(recs), Report: "| agent | absence |\n| --- | --- |\n| sgcot | 0.5 |\n"}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, SiteDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(filepath.Join(dir, SiteDir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ why, file, want string }{
		{"the cell links to its failures", string(index), `<td><a href="index.html#agent=sgcot&amp;perturbation=absence&amp;success=false" title="the failures of this cell">0.5</a></td>`},
		{"the agent's cell stays text", string(index), "<td>sgcot</td>"},
		{"app.js reads the fragment when it changes", string(app), `addEventListener("hashchange", follow)`},
		{"app.js reads the fragment at load", string(app), "\n  follow();\n"},
	} {
		if !strings.Contains(tc.file, tc.want) {
			t.Errorf("%s: no %q", tc.why, tc.want)
		}
	}
}

func TestAnswerRows(t *testing.T) {
	for _, tc := range []struct {
		why    string
		answer []string
		truth  []string
		want   []answerRow
	}{
		{"each answered id with whether, and where, it is in the truth", []string{"obj3", "obj9", "obj1"}, []string{"obj1", "obj3"},
			[]answerRow{{1, "obj3", true, 2}, {2, "obj9", false, 0}, {3, "obj1", true, 1}}},
		{"no answer: no rows", nil, []string{"obj1"}, nil},
	} {
		r := results.Record{Track: "semmap", Query: "q1", Answer: tc.answer, Truth: tc.truth}
		if got := answerRows(&r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.why, got, tc.want)
		}
	}
}

// hhCall is a transcript line of a household episode: the prompt's one
// user message and the reply, a tool call of tool with arg when tool is
// set, else text.
func hhCall(t *testing.T, key, prompt, tool, arg, text string) map[string]any {
	t.Helper()
	reply := map[string]any{"text": text}
	switch tool {
	case "act":
		reply["tool_calls"] = []any{map[string]any{"id": "c", "name": "act", "args": map[string]string{"command": arg}}}
	case "ask":
		reply["tool_calls"] = []any{map[string]any{"id": "c", "name": "ask", "args": map[string]string{"question": arg, "tag": "multiplicity"}}}
	}
	return map[string]any{"episode": key, "model": "sim",
		"request": map[string]any{"messages": []any{map[string]string{"role": "user", "text": prompt}}},
		"reply":   reply}
}

func TestHouseholdTrials(t *testing.T) {
	const open = "You are in a room.\n\nYour task is to: put a plate on table."
	const tail = "\n\nYour next step: one tool call.\n"
	for _, tc := range []struct {
		why   string
		calls func(key string) []map[string]any
		want  []trial
	}{
		{"one trial: its text is the last call's prompt, with the command that call sent",
			func(k string) []map[string]any {
				return []map[string]any{
					hhCall(t, k, "Here is your task.\n\n"+open+tail, "act", "go to table 1", ""),
					hhCall(t, k, "Here is your task.\n\n"+open+"\n> go to table 1\nOn the table 1, you see nothing."+tail, "ask", "Which plate?", ""),
				}
			},
			[]trial{{N: 1, Text: open + "\n> go to table 1\nOn the table 1, you see nothing.", Last: "(ask, multiplicity) Which plate?"}}},
		{"two trials with the reflection between; the notes before the second trial's task are not its game text",
			func(k string) []map[string]any {
				return []map[string]any{
					hhCall(t, k, "Here is your task.\n\n"+open+tail, "act", "look", ""),
					hhCall(t, k, "You tried a task.\n"+open+"\n> look\nNothing.\nThe attempt failed.\n\nNew plan:", "", "", "Take the <script>alert(1)</script> plate."),
					hhCall(t, k, "You have tried this task before.\nAttempt 1: Take the plate.\n\nThis is attempt 2.\nHere is your task.\n\n"+open+tail, "act", "take plate 1", ""),
				}
			},
			[]trial{{N: 1, Text: open, Last: "look", Reflection: "Take the <script>alert(1)</script> plate."}, {N: 2, Text: open, Last: "take plate 1"}}},
		{"the text shape: the prompt ends in \"> \" and the reply is the command",
			func(k string) []map[string]any {
				return []map[string]any{hhCall(t, k, "Worked games...\nThe task to carry out:\n"+open+"\n> look\nNothing.\n> ", "", "", "go to table 1\n")}
			},
			[]trial{{N: 1, Text: open + "\n> look\nNothing.", Last: "go to table 1"}}},
		{"calls that are no game's (a prompt with no task) are skipped",
			func(k string) []map[string]any { return []map[string]any{hhCall(t, k, "Something else.", "", "", "x")} },
			nil},
	} {
		var cs []entry
		for _, c := range tc.calls("k") {
			data, _ := json.Marshal(c)
			var e entry
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatal(err)
			}
			cs = append(cs, e)
		}
		if got := householdTrials(cs); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tc.why, got, tc.want)
		}
	}
}

// TestEpisodePages writes the site of a household and a semmap episode
// and reads their pages: the household game's text is shown escaped, a
// model's <script> as text, and the semmap answer against the truth.
func TestEpisodePages(t *testing.T) {
	dir := t.TempDir()
	hh := results.Record{Suite: 1, Track: "household", Family: "pick_and_place", Perturbation: "multiplicity", Agent: "reflexion", Model: "sim", Seed: 1, Outcome: results.OutcomeScored, Trials: 2, Reflections: 1}
	sm := results.Record{Suite: 1, Track: "semmap", Family: "object", Perturbation: "text", Agent: "direct", Model: "sim", Seed: 1, Outcome: results.OutcomeScored,
		Query: "q1", Answer: []string{"obj7", "obj2"}, Truth: []string{"obj2"}}
	k := hh.Key()
	lines := []map[string]any{
		hhCall(t, k, "Here is your task.\n\nYour task is to: <b>plate</b>.\n> look\nYou see a <script>alert(1)</script>.\n\nYour next step: one tool call.\n", "act", "take <script>x</script>", ""),
		hhCall(t, k, "Attempt.\nThe attempt failed.\n\nNew plan:", "", "", "Next time <script>alert(2)</script>."),
		hhCall(t, k, "Here is your task.\n\nYour task is to: <b>plate</b>.\n\nYour next step: one tool call.\n", "act", "look", ""),
	}
	var b strings.Builder
	for _, l := range lines {
		data, _ := json.Marshal(l)
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "transcripts.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(Run{Dir: dir, Records: Records([]results.Record{hh, sm})}); err != nil {
		t.Fatal(err)
	}
	read := func(n int) string {
		data, err := os.ReadFile(filepath.Join(dir, SiteDir, EpisodePage(true, n)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	page, smPage := read(0), read(1)
	for _, tc := range []struct {
		why, page, want string
		present         bool
	}{
		{"the household page has the game section", page, "The game, trial by trial", true},
		{"the game's text is shown, escaped", page, "You see a &lt;script&gt;alert(1)&lt;/script&gt;.", true},
		{"the last command is shown, escaped", page, "&gt; take &lt;script&gt;x&lt;/script&gt;", true},
		{"the reflection between the trials is shown, escaped", page, "Next time &lt;script&gt;alert(2)&lt;/script&gt;.", true},
		{"both trials are shown", page, "<h3>Trial 2</h3>", true},
		{"no model text becomes a script element", page, "<script>", false},
		{"the task's markup is text", page, "<b>plate</b>", false},
		{"the semmap page has the answer table", smPage, "The answer against the truth", true},
		{"an answered id in the truth says where", smPage, "<td>obj2</td><td>yes (rank 1)</td>", true},
		{"an answered id not in the truth says no", smPage, "<td>obj7</td><td>no</td>", true},
		{"a semmap page has no game section", smPage, "The game, trial by trial", false},
	} {
		if strings.Contains(tc.page, tc.want) != tc.present {
			t.Errorf("%s: page holds %q = %v, want %v", tc.why, tc.want, !tc.present, tc.present)
		}
	}
}

func TestDrawMap(t *testing.T) {
	objs := []MapObject{
		{ID: "obj1", Class: "chair", X: 1, Y: 1, W: 0.5, H: 0.5},
		{ID: "obj2", Class: "table", X: 3, Y: 2, W: 1, H: 2},
		{ID: "obj3", Class: "bed", X: 5, Y: 1, W: 2, H: 1},
		{ID: "obj4", Class: "lamp", X: 0, Y: 4, W: 0.2, H: 0.2},
	}
	v := drawMap(objs, []string{"obj2", "obj1", "obj9"}, []string{"obj1", "obj3"})
	kinds := map[string]string{}
	labels := map[string]string{}
	for _, b := range v.Boxes {
		id := strings.Fields(b.Title)[0]
		kinds[id], labels[id] = b.Kind, b.Label
	}
	for _, tc := range []struct {
		why, id, kind, label string
	}{
		{"answered at rank 2 and true", "obj1", "both", "#2 obj1"},
		{"answered at rank 1, not true", "obj2", "answer", "#1 obj2"},
		{"true, not answered: labelled so the reader sees what was missed", "obj3", "truth", "obj3"},
		{"neither: in the path of the others, not a box", "obj4", "", ""},
	} {
		if kinds[tc.id] != tc.kind || labels[tc.id] != tc.label {
			t.Errorf("%s: %s is %q labelled %q, want %q labelled %q", tc.why, tc.id, kinds[tc.id], labels[tc.id], tc.kind, tc.label)
		}
	}
	if len(v.Boxes) != 3 {
		t.Errorf("%d boxes, want the 3 marked objects (an answered id the map lacks, obj9, draws none)", len(v.Boxes))
	}
	// obj4, 0.2 m square, the leftmost and topmost: its corner is the
	// margin's, 0.5 m from the left and the top.
	if v.Others != "M0.50 0.50h0.20v0.20h-0.20z" {
		t.Errorf("the others' path is %q, want obj4's square", v.Others)
	}
	// x from -0.1 (obj4) to 6 (obj3), y from 0.5 (obj3) to 4.1 (obj4), a margin around.
	if v.ViewBox != "0 0 7.10 4.60" {
		t.Errorf("view box %q, want the boxes' extent and a margin of %g m", v.ViewBox, planMargin)
	}
	if drawMap(nil, nil, nil) != nil {
		t.Error("a map of no object is drawn")
	}
}
