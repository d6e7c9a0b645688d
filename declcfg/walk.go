package declcfg

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/fbcat/opm/internal/fserr"
)

// IndexIgnoreFile names the files that list paths the loader skips.
const IndexIgnoreFile = ".indexignore"

// catalogFiles lists the files of fsys that hold catalog data, in lexical
// walk order, as upstream selects them: every regular file (or link to one)
// except .indexignore files and what their patterns exclude. Every
// .indexignore in the tree applies to the paths below its directory, with
// git's gitignore rules; deeper files take precedence. Paths that cannot be
// read are returned as errors alongside the files that can.
func catalogFiles(fsys fs.FS) ([]string, ErrorList, error) {
	var files []string
	var problems ErrorList
	var patterns []gitignore.Pattern
	patterns = append(patterns, gitignore.ParsePattern(IndexIgnoreFile, nil))
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			problems = append(problems, &Error{File: p, Message: fmt.Sprintf("cannot read: %v", fserr.Cause(err))})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Name() == IndexIgnoreFile {
			ps, err := readIgnoreFile(fsys, p)
			if err != nil {
				problems = append(problems, &Error{File: p, Message: err.Error()})
				return nil
			}
			patterns = append(patterns, ps...)
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	m := gitignore.NewMatcher(patterns)
	kept := files[:0]
	for _, f := range files {
		if !m.Match(strings.Split(f, "/"), false) {
			kept = append(kept, f)
		}
	}
	return kept, problems, nil
}

func readIgnoreFile(fsys fs.FS, p string) ([]gitignore.Pattern, error) {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %v", fserr.Cause(err))
	}
	var domain []string
	if dir := path.Dir(p); dir != "." {
		domain = strings.Split(dir, "/")
	}
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, nil
}
