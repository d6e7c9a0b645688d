package declcfg

import (
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"slices"
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
// read are returned as errors alongside the files that can; .indexignore
// files are read as catalog files are (see readFile), with the same limit.
func catalogFiles(fsys fs.FS, limit int64) ([]string, ErrorList, error) {
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
			ps, err := readIgnoreFile(fsys, p, limit)
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

func readIgnoreFile(fsys fs.FS, p string, limit int64) ([]gitignore.Pattern, error) {
	f, st, err := openRegular(fsys, p, limit, ignoreFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(limitReader(f, limit), make([]byte, 0, st.Size()+1), limit, ignoreFile)
	if err != nil {
		return nil, err
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

// largestFirst returns the indexes of files, the largest file first: the
// workers start on the files that take longest, so that none is left
// with a large file while the others have finished (a real catalog's
// largest package can be a third of it). A file that cannot be stated
// counts as empty; reading it reports the problem.
func largestFirst(fsys fs.FS, files []string) []int {
	order := make([]int, len(files))
	sizes := make([]int64, len(files))
	for i, name := range files {
		order[i] = i
		if st, err := fs.Stat(fsys, name); err == nil {
			sizes[i] = st.Size()
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sizes[b], sizes[a]) })
	return order
}
