// Package sim holds the engines that change a world by actions. Each engine
// lives in its own sub-package: [github.com/ambibench/ambibench/sim/physics]
// steps a rigid-body space of blocks and bowls;
// [github.com/ambibench/ambibench/sim/textworld] is the ALFWorld-like text
// world of the household track. An engine reports its state
// as [github.com/ambibench/ambibench/scenes] objects, tells what each robot
// observes, and decides outcomes by simulation, never by moving objects by
// decree.
package sim
