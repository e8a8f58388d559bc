package tabletop

// singlePath is why a test skips under -short: it plays many episodes
// along one path, which make test runs without the race detector; make
// test-long runs this package again under the detector with -short, where
// it would take minutes and find nothing the tests of concurrency miss.
const singlePath = "many episodes along one path: make test runs it; skipped under -short, as make test-long's race run passes"
