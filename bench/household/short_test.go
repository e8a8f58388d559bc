package household

// singlePath is why a test that plays one path at length skips under -short.
const singlePath = "many episodes along one path: make test runs it without the race detector; make test-long's race run passes -short"
