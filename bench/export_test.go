package bench

// OnStart sets the hook the tests of stopping read: f is called as each
// episode begins.
func OnStart(o *Options, f func(Job)) { o.onStart = f }
