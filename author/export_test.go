package author

// SetApplyHook makes Apply call step at each of its steps ("staged <i>",
// "committed", "renamed <i>"), for tests that kill the process there.
func SetApplyHook(p *Plan, step func(name string)) { p.step = step }
