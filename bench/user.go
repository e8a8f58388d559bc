package bench

import "github.com/ambibench/ambibench/agents"

// simulatedUser is the user of DESIGN.md's contract (paper 001, section
// 4.2), shared by the tracks: a question whose tag matches the ground
// truth gets the recorded answer; any other ends the episode
// unsuccessfully. It keeps the tallies the record is made of.
type simulatedUser struct {
	asked      bool // asked the user
	firstTag   string
	questions  int
	tagCorrect int
	wrongTag   bool
}

// answer answers a question tagged tag, where the ground truth is label
// and answer what the user says to the right question; the result ends
// the episode when the tag was wrong.
func (u *simulatedUser) answer(tag, label, answer string) agents.Result {
	u.questions++
	if !u.asked {
		u.asked, u.firstTag = true, tag
	}
	if tag == label && answer != "" {
		u.tagCorrect++
		return agents.Result{Text: answer}
	}
	u.wrongTag = true
	return agents.Result{Text: "That question does not fit the situation; the user ends the episode.", Ended: true}
}
