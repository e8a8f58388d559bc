package bench

import "github.com/ambibench/ambibench/agents"

// User is the simulated user of the contract in docs/contracts.md, shared
// by the tracks: a question whose tag matches the ground truth gets the
// recorded answer; any other ends the episode unsuccessfully. It keeps
// the tallies a record is made of. Embed it in an episode's state.
type User struct {
	Asked      bool // asked the user
	FirstTag   string
	Questions  int
	TagCorrect int
	WrongTag   bool
}

// Answer answers a question tagged tag, where the ground truth is label
// and answer what the user says to the right question; the result ends
// the episode when the tag was wrong.
func (u *User) Answer(tag, label, answer string) agents.Result {
	u.Questions++
	if !u.Asked {
		u.Asked, u.FirstTag = true, tag
	}
	if tag == label && answer != "" {
		u.TagCorrect++
		return agents.Result{Text: answer}
	}
	u.WrongTag = true
	return agents.Result{Text: "That question does not fit the situation; the user ends the episode.", Ended: true}
}
