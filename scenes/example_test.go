package scenes_test

import (
	"fmt"

	"github.com/ambibench/ambibench/scenes"
)

// exampleTable is two red blocks and a blue bowl; the second red block is
// in the bowl.
func exampleTable() []scenes.Object {
	return []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.5),
		scenes.NewBlock("red block 2", "red", 0.1, -0.5),
		scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.5),
	}
}

func ExampleGraph_RetrieveNode() {
	g := scenes.BuildGraph(exampleTable())

	// By base name: every red block, whatever its number.
	fmt.Println(g.RetrieveNode(scenes.NodeQuery{Name: "red block"}))
	// By exact id.
	fmt.Println(g.RetrieveNode(scenes.NodeQuery{Name: "red block 2"}))
	// By one attribute.
	fmt.Println(g.RetrieveNode(scenes.NodeQuery{Attrs: map[string]string{"type": "bowl"}}))
	// No filter: every node.
	fmt.Println(len(g.RetrieveNode(scenes.NodeQuery{})))
	// Output:
	// [red block 1 red block 2]
	// [red block 2]
	// [blue bowl 1]
	// 3
}

func ExampleGraph_RetrieveEdge() {
	g := scenes.BuildGraph(exampleTable())

	// What is in the blue bowl?
	for _, e := range g.RetrieveEdge(scenes.EdgeQuery{Target: "blue bowl 1", Relation: scenes.RelInsideOf}) {
		fmt.Println(e)
	}
	// Where is red block 1?
	for _, e := range g.RetrieveEdge(scenes.EdgeQuery{Source: "red block 1"}) {
		fmt.Println(e)
	}
	// Output:
	// the red block 2 is inside_of the blue bowl 1
	// the red block 1 is left_of the red block 2
	// the red block 1 is left_of the blue bowl 1
}

func ExampleDecodeGraph() {
	_, err := scenes.DecodeGraph([]byte(`{"nodes":[{"id":"a"}],"edges":[{"source":"a","target":"b","relation":"near"}]}`))
	fmt.Println(err)
	// Output:
	// scene graph: edges[0].target: unknown node "b"
}
