// Package semmap is the semantic-map track of the harness: queries on
// object-level semantic maps (tasks/mapqueries), whose task families are the
// query types and whose episodes are a dataset's (map, query) pairs. The
// agent reads the map (get_map) and answers a ranked list of object ids;
// the record holds Top-1, Top-2, Top-3 and Top-Any against the annotated
// answer.
//
// The track's second dimension is the input mode ([Modes]): the map shown
// with or without its detector's confidences. A mode is a view of the
// same episode, not a perturbation of it (the query, the map and the truth
// are the same in both), so modes are the track's own dimension (--modes)
// rather than entries of the perturbation registry.
package semmap
