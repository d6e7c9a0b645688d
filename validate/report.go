package validate

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// Group is a set of problems that come from one cause: a file that repeats
// a package defined elsewhere, or one mistake made at many objects (the
// same message at each). Reports print a group as one line.
type Group struct {
	// Cause says what the problems share: their Cause, or their message.
	Cause string
	// Problems, in file and line order.
	Problems declcfg.ErrorList
}

// GroupProblems groups problems, which must be sorted, by cause: problems
// with the same Cause belong together, and so do problems without one that
// have the same message. Groups are in the order of their first problems.
func GroupProblems(problems declcfg.ErrorList) []Group {
	var groups []Group
	index := map[string]int{}
	for _, p := range problems {
		key := "message\x00" + p.Message
		cause := p.Message
		if p.Cause != "" {
			key, cause = "cause\x00"+p.Cause, p.Cause
		}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, Group{Cause: cause})
		}
		groups[i].Problems = append(groups[i].Problems, p)
	}
	return groups
}

// String is the group's line: a single problem as it is; several as their
// first position, the cause and every place with what is there, e.g.
//
//	b/catalog.yaml:2: objects of package "foo" defined again (first in a/catalog.yaml); keep one copy (3 problems: b/catalog.yaml:2 package "foo"; :8 channel "stable"; :14 bundle "foo.v0.1.0")
func (g Group) String() string {
	if len(g.Problems) == 1 {
		return g.Problems[0].Error()
	}
	first := g.Problems[0]
	samePackage := true
	for _, p := range g.Problems {
		samePackage = samePackage && p.Package == first.Package
	}
	var b strings.Builder
	if loc := first.Location(); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s (%d problems: ", g.Cause, len(g.Problems))
	file := ""
	for i, p := range g.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		loc := p.Location()
		if p.File == file && p.Line > 0 {
			// the same file as the place before: its line is enough
			loc = strings.TrimPrefix(loc, p.File)
		}
		file = p.File
		b.WriteString(loc)
		if s := placeSubject(p, samePackage); s != "" {
			b.WriteByte(' ')
			b.WriteString(s)
		}
	}
	b.WriteByte(')')
	return b.String()
}

// placeSubject names the object at a place of a group, without its package
// when every place is in the same package.
func placeSubject(p *declcfg.Error, samePackage bool) string {
	if samePackage && (p.Bundle != "" || p.Channel != "" || p.Schema == declcfg.SchemaBundle || p.Schema == declcfg.SchemaChannel) {
		c := *p
		c.Package = ""
		return c.Subject()
	}
	return p.Subject()
}
