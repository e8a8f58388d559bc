package tabletop

import (
	"math"
	"strings"
	"unicode"
)

// CLARA's uncertainty is the diversity of what its sampled answers pick and
// where they place it. The authors' code (CLARA-PNP-DEMO, llm/chat.py: the
// planner's get_word_diversity) embeds each answer's pick phrase and place
// phrase with word vectors (spaCy's en_core_web_lg: a phrase's vector is
// the mean of its words' vectors), takes the mean Euclidean distance over
// all ordered pairs of answers, and adds the pick phrases' diversity to the
// place phrases'.
//
// ambibench keeps that formula and substitutes the word vectors: each word
// is a vector of its own, orthogonal to every other word's (a one-hot
// vector over the words the answers use), so a phrase's vector, the mean of
// its words', is its bag of words divided by its length. A word-vector
// model would have to be shipped or downloaded, and its vectors would make
// the score depend on that model's release; the substitute needs none and
// is exact. What it gives up is the similarity of related words: "red" is
// as far from "pink" as from "bowl", where word vectors put the colours
// closer. The answers name objects by the ids the prompt lists ("green
// block 2") or by the named places, so two answers that mean the same thing
// write the same words, and two that differ differ in a word.

// phraseWords are a phrase's words, lower-cased: its runs of letters and
// digits, so "Green block 2." and "green block 2" are the same words.
func phraseWords(phrase string) []string {
	return strings.FieldsFunc(strings.ToLower(phrase), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// phraseVector is a phrase's stand-in for the mean of its word vectors:
// each word weighs 1/n of the phrase's n words. A phrase without words is
// the zero vector.
func phraseVector(phrase string) map[string]float64 {
	words := phraseWords(phrase)
	v := make(map[string]float64, len(words))
	for _, w := range words {
		v[w] += 1 / float64(len(words))
	}
	return v
}

// vectorDistance is the Euclidean distance between two phrase vectors.
func vectorDistance(a, b map[string]float64) float64 {
	var sum float64
	for w, x := range a {
		d := x - b[w]
		sum += d * d
	}
	for w, y := range b {
		if _, ok := a[w]; !ok {
			sum += y * y
		}
	}
	return math.Sqrt(sum)
}

// phraseDiversity is the mean Euclidean distance between the phrases'
// vectors over all pairs of distinct answers (the reference sums the
// distance matrix and divides by n(n-1)): 0 when every phrase has the same
// words, larger the more the phrases differ and the more often. Fewer than
// two phrases have no pair and a diversity of 0.
func phraseDiversity(phrases []string) float64 {
	n := len(phrases)
	if n < 2 {
		return 0
	}
	vecs := make([]map[string]float64, n)
	for i, p := range phrases {
		vecs[i] = phraseVector(p)
	}
	var sum float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			sum += vectorDistance(vecs[i], vecs[j])
		}
	}
	// Each unordered pair stands for the two ordered ones of the
	// reference's matrix: 2·sum / (n(n-1)).
	return 2 * sum / float64(n*(n-1))
}

// claraDone is the pick and place phrase of a plan that has ended: the
// reference reads an answer of done() as the pick "done" placed at "done".
const claraDone = "done"

// stepPhrases are the pick and place phrases of a plan's step. A message to
// the other robot is scored as an action and its argument, as the
// authors' other planner (CLARA-SaGC-Code, llm/chat.py) scores an action's
// name beside its object: the message is the pick phrase and the action's
// name the place phrase.
func stepPhrases(s claraStep) (pick, place string) {
	if s.AskRobot != "" {
		return s.AskRobot, "ask_robot"
	}
	return s.Pick, s.Place
}

// planDiversity is CLARA's uncertainty over the sampled plans: for each
// step of the plans, in order, the diversity of the answers' pick phrases
// plus that of their place phrases; the plans' uncertainty is their most
// uncertain step's. The reference plans one step a round and scores that
// step; ambibench's sampling prompt asks for the whole plan at once (so a
// plan can be carried out without a round of samples per step), and each
// step is scored as the reference scores its one step. A plan shorter than
// another has ended: its missing steps are "done", as an answer of done()
// is in the reference. The reference's total also divides by 10, a
// constant that moves no fitted threshold, left out here.
func planDiversity(plans [][]claraStep) float64 {
	steps := 0
	for _, p := range plans {
		steps = max(steps, len(p))
	}
	worst := 0.0
	picks, places := make([]string, len(plans)), make([]string, len(plans))
	for i := range steps {
		for j, p := range plans {
			picks[j], places[j] = claraDone, claraDone
			if i < len(p) {
				picks[j], places[j] = stepPhrases(p[i])
			}
		}
		worst = max(worst, phraseDiversity(picks)+phraseDiversity(places))
	}
	return worst
}
