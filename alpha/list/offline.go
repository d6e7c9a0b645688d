package list

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// Names lists, for shell completion, the packages of the catalog
// directory dir or, for prefix "PACKAGE:" (withChannels), that package's
// channels as "PACKAGE:CHANNEL", sorted, that start with prefix; false
// when dir is no catalog directory that can be read (an image, a bundle,
// a missing path), never an error. A catalog with problems lists what
// could be indexed.
func Names(ctx context.Context, dir, prefix string, withChannels bool) ([]string, bool) {
	if ctx == nil {
		ctx = context.Background()
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || render.IsBundleDir(dir) {
		return nil, false
	}
	cfg, _ := declcfg.LoadFS(ctx, os.DirFS(dir), declcfg.WithoutBulkValues())
	if cfg == nil {
		return nil, false
	}
	c, _ := model.New(cfg, model.Options{})
	if c == nil {
		return nil, false
	}
	var names []string
	if pkg, _, ok := strings.Cut(prefix, ":"); ok && withChannels {
		if p := c.Packages[pkg]; p != nil {
			for ch := range p.Channels {
				names = append(names, pkg+":"+ch)
			}
		}
	} else {
		for name := range c.Packages {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, prefix) }), true
}
