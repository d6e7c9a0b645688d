package finding

import (
	"cmp"
	"slices"
)

// Compare orders findings by file, line, rule, package, bundle, message
// and channel (last, so that repeats are neighbours).
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Package, b.Package),
		cmp.Compare(a.Bundle, b.Bundle),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Channel, b.Channel),
	)
}

// Sort sorts findings (see Compare) and drops repeats: the same finding
// made through two channels or two catalogs at the same place is kept
// once (with the first channel, naming the catalogs of both).
func Sort(fs []Finding) []Finding {
	slices.SortFunc(fs, Compare)
	out := fs[:0]
	for i := range fs {
		if n := len(out); n > 0 && sameButChannel(&out[n-1], &fs[i]) {
			out[n-1].Catalogs = JoinCatalogs(out[n-1].Catalogs, fs[i].Catalogs)
			continue
		}
		out = append(out, fs[i])
	}
	clear(fs[len(out):])
	return out
}

// sameButChannel reports whether two findings are the same but for their
// channel and catalogs.
func sameButChannel(a, b *Finding) bool {
	return a.Rule == b.Rule && a.Severity == b.Severity && a.Package == b.Package && a.Bundle == b.Bundle &&
		a.File == b.File && a.Line == b.Line && a.Message == b.Message && a.Object == b.Object &&
		a.BaselineState == b.BaselineState && a.Suppressed == b.Suppressed && a.Check == b.Check && slices.Equal(a.Reasons, b.Reasons)
}
