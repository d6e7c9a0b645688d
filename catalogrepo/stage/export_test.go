package stage

import "context"

// WriteSteps is Write calling step at each of its steps ("staged <i>",
// "committed", "renamed <i>", and after a failed rename "aborting",
// "restored <i>", "restored"), for tests that kill the process there.
func WriteSteps(ctx context.Context, root string, files []File, step func(name string)) error {
	return writer{step: step}.write(ctx, root, files)
}
