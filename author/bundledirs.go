package author

import (
	"os"
	"path"
	"sync"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// bundleDirIndex finds the CSVs of the bundle directories of an operator
// directory (dir, root-relative) by CSV name, reading them only when
// first asked.
type bundleDirIndex struct {
	repo *catalogrepo.Repo
	dir  string
	once sync.Once
	csvs map[string][]byte
}

func (x *bundleDirIndex) csv(name string) []byte {
	x.once.Do(x.load)
	return x.csvs[name]
}

// load renders every bundle directory of the operator directory; those
// that do not parse are left out (they are not what is being released).
func (x *bundleDirIndex) load() {
	x.csvs = map[string][]byte{}
	entries, err := os.ReadDir(x.repo.Path(x.dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		dir := x.repo.Path(path.Join(x.dir, e.Name()))
		if !e.IsDir() || !render.IsBundleDir(dir) {
			continue
		}
		fbc, err := render.BundleFromDir(dir, "")
		if err != nil {
			continue
		}
		if objects, err := fbc.Objects(); err == nil {
			if i := declcfg.CSVIndex(objects); i >= 0 {
				x.csvs[fbc.Name] = objects[i]
			}
		}
	}
}
