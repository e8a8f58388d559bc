package results

import "strconv"

// SchemaVersion is the version of the record schema that this package writes
// and reads. A record of another version is rejected by [Record.Validate].
// Version 2 added the outcome, the error kind and the suite version.
const SchemaVersion = 2

// Outcomes of an episode (docs/contracts.md, "Records and outcomes").
const (
	// OutcomeScored: the episode ran to its end and is scored.
	OutcomeScored = "scored"
	// OutcomeAgentError: the agent failed (a reply it could not use, a
	// workflow that gave up, a refusal that is the model's own limit); the
	// episode is scored, as a failure where it failed.
	OutcomeAgentError = "agent_error"
	// OutcomeInfraError: the provider, the network or a cassette failed.
	// The episode is never scored, always reported, and run again when the
	// run is resumed.
	OutcomeInfraError = "infra_error"
)

// FreeTextReflectTool is the tool a reflection that is one free-text call
// (Reflexion's) is counted under in [Record.ReflectionTools].
const FreeTextReflectTool = "reflect"

// Record is one episode run by one agent with one model (schema v2).
type Record struct {
	Schema       int            `json:"schema"`                // always SchemaVersion
	Suite        int            `json:"suite"`                 // suite version that made the episode and scored it
	Outcome      string         `json:"outcome"`               // OutcomeScored, OutcomeAgentError or OutcomeInfraError
	ErrorKind    string         `json:"error_kind,omitempty"`  // for an error outcome, its kind: "timeout", "rate limited", "refused: safety", …
	Track        string         `json:"track"`                 // "tabletop"
	Family       string         `json:"family"`                // task family, e.g. "pick_place"
	Perturbation string         `json:"perturbation"`          // e.g. "absence"
	Label        string         `json:"label"`                 // ground-truth ambiguity label, e.g. "none"
	OutOfView    string         `json:"out_of_view,omitempty"` // under partial observability, what robot 1 cannot see: "object" or "destination"
	Agent        string         `json:"agent"`                 // agent name, e.g. "sgcot"
	Model        string         `json:"model,omitempty"`       // model spec, e.g. "sim:weak"; empty for agents that use none
	Seed         uint64         `json:"seed"`                  // suite seed
	Episode      int            `json:"episode"`               // episode index
	SceneSize    int            `json:"scene_size,omitempty"`  // objects asked for on the table, distractors included; 0: the family's own size
	Repeat       int            `json:"repeat,omitempty"`      // which of a --repeats run's plays of the episode, from 0; 0 also when the run had one
	Objects      int            `json:"objects,omitempty"`     // objects on the table at the start
	Perception   string         `json:"perception,omitempty"`  // "image" when the agent perceived the table from its camera image (--perception image); empty: the detector
	Instruction  string         `json:"instruction"`           // instruction the agent was given
	Asked        bool           `json:"asked"`                 // asked for clarification (user question, or ask_robot under partial observability)
	Tag          string         `json:"tag,omitempty"`         // tag of the first question
	Questions    int            `json:"questions"`             // clarification questions asked
	TagCorrect   int            `json:"tag_correct"`           // questions whose tag matched the ground truth
	Success      bool           `json:"success"`               // SR: the final state satisfies the goal
	ADA          bool           `json:"ada"`                   // ambiguity detected (see docs/metrics.md)
	Steps        int            `json:"steps"`                 // agent steps taken
	ToolCalls    map[string]int `json:"tool_calls"`            // calls per tool name
	Messages     []Message      `json:"messages,omitempty"`    // robot-to-robot messages
	ActedBy      []string       `json:"acted_by,omitempty"`    // robots that executed a pick_and_place, in order
	Error        string         `json:"error,omitempty"`       // why the episode failed, if it failed by error
	Attempts     int            `json:"attempts,omitempty"`    // model requests sent, retries included (Calls counts the replies)
	WallMS       float64        `json:"wall_ms"`               // wall time of the episode in milliseconds
	// Model usage, for agents driven by a language model (zero otherwise).
	Calls        int     `json:"calls,omitempty"`          // model calls
	InputTokens  int     `json:"input_tokens,omitempty"`   // prompt tokens, all calls
	OutputTokens int     `json:"output_tokens,omitempty"`  // reply tokens, all calls
	LatencyP50MS float64 `json:"latency_p50_ms,omitempty"` // median latency per call, ms
	LatencyP95MS float64 `json:"latency_p95_ms,omitempty"` // 95th percentile latency per call, ms
	// Perception errors, for an agent that builds its scene graph itself
	// (SG-CoT and its ablations): what its perception got wrong against
	// the table, as docs/metrics.md defines them (zero otherwise).
	PhantomNodes      int `json:"phantom_nodes,omitempty"`      // perceived nodes with no object under them
	MissedObjects     int `json:"missed_objects,omitempty"`     // objects the robot observes that no node stands for
	WrongRelations    int `json:"wrong_relations,omitempty"`    // relations written that the table's geometry does not hold
	UnmappedRelations int `json:"unmapped_relations,omitempty"` // relations written under names the mapping cannot read
	// Trials, for tracks that may play a game more than once (household).
	Trials               int `json:"trials,omitempty"`                // trials played
	SolvedTrial          int `json:"solved_trial,omitempty"`          // the trial that reached the goal, from 1; 0 if none did
	OptimalSteps         int `json:"optimal_steps,omitempty"`         // the expert's shortest plan for the goal
	Reflections          int `json:"reflections,omitempty"`           // reflection steps run
	RedundantReflections int `json:"redundant_reflections,omitempty"` // reflections that changed nothing that mattered (docs/metrics.md)
	ReflectionTokens     int `json:"reflection_tokens,omitempty"`     // input and output tokens of the reflection calls
	// ReflectionTools counts the calls of each reflection tool over the
	// game (DyRef's toolkit: "key_rules", "lesson", …); a reflection that
	// is one free-text call, as Reflexion's, counts as one call of
	// "reflect". ReflectionTokenCounts holds each reflection's tokens, in
	// order: one entry per reflection, summing to ReflectionTokens.
	ReflectionTools       map[string]int `json:"reflection_tools,omitempty"`        // calls per reflection tool
	ReflectionTokenCounts []int          `json:"reflection_token_counts,omitempty"` // tokens of each reflection, in order
	// ReflectionTrials holds, for each reflection in the same order, the
	// trial it looked back on (1 for the one after trial 1), which the
	// figures at a trial (Cost_ref@k) need.
	ReflectionTrials []int `json:"reflection_trials,omitempty"`
	// The semmap track: one record per map, query and agent. Family is
	// the query type and Perturbation the input mode.
	Dataset      string   `json:"dataset,omitempty"`      // the dataset's name
	Map          string   `json:"map,omitempty"`          // the semantic map
	MapOrigin    string   `json:"map_origin,omitempty"`   // where the map comes from ("ScanNet"), when the dataset says
	MapObjects   int      `json:"map_objects,omitempty"`  // objects in the map as shown
	Query        string   `json:"query,omitempty"`        // the query's id
	Difficulty   string   `json:"difficulty,omitempty"`   // the query's difficulty
	Answer       []string `json:"answer,omitempty"`       // the agent's ranked object ids
	Truth        []string `json:"truth,omitempty"`        // the annotated ranked ids
	Top1         bool     `json:"top1,omitempty"`         // see TopK
	Top2         bool     `json:"top2,omitempty"`         //
	Top3         bool     `json:"top3,omitempty"`         //
	TopAny       bool     `json:"top_any,omitempty"`      //
	Hallucinated int      `json:"hallucinated,omitempty"` // answered ids that are not in the map
	// NoReadableAnswer marks a semmap episode that ended without an answer
	// that could be read (the model's final reply was malformed, or the
	// agent never answered). It is a miss at every k even when the truth
	// is empty, which an empty Answer alone cannot say: the JSON of an
	// empty answer and of none is the same.
	NoReadableAnswer bool `json:"no_readable_answer,omitempty"`
}

// TopK scores a ranked answer y against the annotated list g, as
// docs/metrics.md defines it: both empty is a hit at every k; y empty and g
// not is a miss; otherwise Top-k holds when one of y's first k ids is in g,
// and Top-Any when any is. Hits are cumulative.
func TopK(y, g []string) (top1, top2, top3, topAny bool) {
	if len(y) == 0 {
		hit := len(g) == 0
		return hit, hit, hit, hit
	}
	in := make(map[string]bool, len(g))
	for _, id := range g {
		in[id] = true
	}
	first := -1
	for i, id := range y {
		if in[id] {
			first = i
			break
		}
	}
	if first < 0 {
		return false, false, false, false
	}
	return first < 1, first < 2, first < 3, true
}

// SolvedBy reports whether the record's goal was reached by trial k. A
// record of a single-trial track is solved at trial 1 when it succeeded.
func (r Record) SolvedBy(k int) bool {
	if r.SolvedTrial > 0 {
		return r.SolvedTrial <= k
	}
	return r.Success && r.Trials == 0 && k >= 1
}

// Scored reports whether the record counts in the rates: every outcome but
// an infrastructure failure.
func (r Record) Scored() bool { return r.Outcome != OutcomeInfraError }

// ScoredOnly returns the records that count in the rates, in order. When
// every record counts, as in most runs, it returns recs itself (its
// capacity cut to its length, so that an append copies), and copies
// nothing: a report calls it for each table and plot, and a copy of make
// bench's 28,600 tabletop records is 17 MB. Callers only read the records.
func ScoredOnly(recs []Record) []Record {
	n := 0
	for i := range recs {
		if recs[i].Scored() {
			n++
		}
	}
	if n == len(recs) {
		return recs[:n:n]
	}
	out := make([]Record, 0, n)
	for i := range recs {
		if recs[i].Scored() {
			out = append(out, recs[i])
		}
	}
	return out
}

// Message is one robot-to-robot message and the reply it got.
type Message struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Text  string `json:"text"`
	Reply string `json:"reply"`
}

// Key identifies a record for resume: track, family, perturbation, agent,
// model, seed, episode and, when set, scene size and repeat. Two records
// have the same key iff they agree on all nine; the strings are quoted, so no choice of
// names makes two different records collide. Example:
// "tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/42/7, or with a scene size
// of 24 objects, "tabletop"/"pick_place"/"absence"/"sgcot"/"sim"/42/7/n=24,
// and its third repeat (Repeat 2) ".../42/7/n=24/r=2".
func (r Record) Key() string { return r.key(true, true, true) }

// key writes what identifies a record's episode, names quoted or plain,
// with or without the agent and the model: the one layout behind Key,
// PlainKey, EpisodeKey and PairKey.
func (r Record) key(quote, withAgent, withModel bool) string {
	b := make([]byte, 0, 64)
	names := []string{r.Track, r.Family, r.Perturbation}
	if withAgent {
		names = append(names, r.Agent)
	}
	if withModel {
		names = append(names, r.Model)
	}
	for _, s := range names {
		if quote {
			b = strconv.AppendQuote(b, s)
		} else {
			b = append(b, s...)
		}
		b = append(b, '/')
	}
	b = strconv.AppendUint(b, r.Seed, 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(r.Episode), 10)
	if r.SceneSize != 0 {
		// A scene size is one more grid dimension; records without one
		// keep the key they always had.
		b = append(b, "/n="...)
		b = strconv.AppendInt(b, int64(r.SceneSize), 10)
	}
	if r.Repeat != 0 {
		// So is a repeat: repeat 0 keeps the key of a run without repeats.
		b = append(b, "/r="...)
		b = strconv.AppendInt(b, int64(r.Repeat), 10)
	}
	return string(b)
}

// EpisodeKey identifies an episode played by an agent, whichever model
// played it: [Record.Key] without the model — track, family,
// perturbation, agent, seed, episode index and, when set, scene size and
// repeat (so two runs with repeats pair repeat with repeat). It is the key
// two runs' records are compared by (results/compare): the model (and the
// agent's own options, which records do not carry) is what a comparison
// compares, so it may differ; everything that makes the episode what it
// is may not. Example: "tabletop"/"pick_place"/"absence"/"sgcot"/42/7.
func (r Record) EpisodeKey() string { return r.key(true, true, false) }

// PairKey identifies an episode whichever agent and model played it:
// [Record.Key] without the agent and the model. It is the key McNemar's
// test pairs two agents' records by (results/stats).
func (r Record) PairKey() string { return r.key(true, false, false) }

// PlainKey is [Record.Key] without the quotes, as a user types it on a
// command line: tabletop/pick_place/absence/sgcot/sim/42/7, or with a
// scene size tabletop/pick_place/absence/sgcot/sim/42/7/n=24. Unlike Key
// it can collide for names that hold a "/"; ambibench's own never do.
func (r Record) PlainKey() string { return r.key(false, true, true) }
