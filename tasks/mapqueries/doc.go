// Package mapqueries holds the data of the semantic-map track (the
// agentic-workflows paper): a dataset is a set of Voxeland semantic maps, a
// set of queries, and for every map and query the annotated answer, a
// ranked list of object ids (possibly empty).
//
// On disk a dataset is a folder in the public layout that accompanies the
// paper:
//
//	semantic_maps/<map>.json   Voxeland maps (scenes.DecodeVoxeland)
//	queries.yaml               queries: {query_01: "text", …}, optional
//	                           types: and difficulty: maps of the same ids
//	responses/<map>.json       {"responses": {"query_01": ["obj3", …], …}}
//	dataset.yaml               optional: the truth's near rule and the
//	                           maps' origins (DescriptionFile)
//
// [LoadDataset] reads one and [Dataset.Write] writes one. Without types:
// in queries.yaml, queries 1–10 are descriptive, 11–20 affordance and
// 21–30 negation, the paper's numbering.
//
// [Builtin] generates the project's own dataset: household maps from about
// 10 to over 100 objects, seen through a simulated detector that confuses
// look-alike classes (chair/couch, cell phone/remote, …), leaves some
// objects unknown, and writes its scores as evidence, not probabilities;
// and 30 queries over the three types and two difficulties. The ground
// truth is computed, as the paper's annotators did, over the map as the
// detector left it: each object is the class it was given the most
// evidence for (scenes.ResolveObjects over the detected map, with the
// affordance table of package scenes). A chair detected as a couch counts
// as a couch, because no reader of the map can know better; the
// confusions still matter, in the uncertainty input, where the runner-up
// class tempts a reader to hedge. Objects the detector left unknown are
// not in the map (DecodeVoxeland drops them) and so are in no answer.
package mapqueries
