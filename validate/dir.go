package validate

import (
	"context"
	"fmt"
	"os"
)

// Dir checks the catalog directory dir as opm validate does: positions
// start with dir (Options.RootName), and a directory that holds no
// catalog object at all is an error, not a catalog that passed (the path
// is likely wrong).
func Dir(ctx context.Context, dir string, opts Options) (*Result, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%q is not a directory", dir)
	}
	opts.RootName = dir
	res, err := Validate(ctx, os.DirFS(dir), opts)
	if err != nil {
		return nil, err
	}
	if res.Passed() && res.Objects == 0 {
		return nil, fmt.Errorf("%s holds no catalog objects (no JSON or YAML blob with a \"schema\" field): check the path; a file-based catalog is a directory of files such as PACKAGE/catalog.yaml", dir)
	}
	return res, nil
}
