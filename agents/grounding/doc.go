// Package grounding is the task grammar of the tabletop track, read from
// the agent's side: it parses instructions, the user's answers and
// messages between robots into references ([Ref]) that retrieval can
// resolve against a scene graph.
//
// It is shared by the rules agent and, later, the simulated model, which is
// why it is a package of its own: the model backends must not import
// package agents.
package grounding
