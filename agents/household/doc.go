// Package household holds the LLM workflows of the household track: react,
// reflexion, their text-shape variants, and DyRef's toolkit agents (dyref,
// dyref-ambiguity, reflect-all, no-reflect), with their prompts (prompts/*.tmpl, embedded; golden copies under
// testdata/).
//
// What they share has a file of its own: player.go, the ReAct player that
// plays one trial, one command per model call; transcript.go, the trial
// as that player's prompt and context hold it, each step written once;
// trials.go, the loop over the trials of a game with a reflection between
// them; reflection.go, what a reflection compares between trials;
// episode.go, what a workflow reads of its Env; examples.go, the worked
// games of each task type (examples/*.txt); arrival.go, the cut of
// "You arrive at loc N. "; textshape.go, the plain-completion shape of
// react-text and reflexion-text; options.go, what the household track's
// --hints and --play-on-repeat change; cases.go, the solved games DyRef's
// key_rules shows (dyref_cases.json, which bench/household makes from the
// training split). The router and the diagnostic graph of DyRef are
// package agents/dyref, shared with the simulated model.
//
// Each workflow registers itself with agents.RegisterWorkflowOn in init.
package household
