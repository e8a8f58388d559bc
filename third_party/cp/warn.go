package cp

// Warn, when set, is told of a step the engine finished in an unusual way
// (the closest-points search of two overlapping shapes that took many
// rounds). Upstream printed these with the standard logger, on the
// process's stderr; a program that wants them sets Warn before it steps a
// space. It is nil, silent, by default.
var Warn func(msg string)
