package baseline

import "path/filepath"

// canonical is a path made absolute, its symbolic links resolved as far
// as it exists.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for d := abs; ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(real, rest), nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}
