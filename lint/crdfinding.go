package lint

import (
	"fmt"
	"strings"
)

// Reason is one unsafe change behind a crd-upgrade-unsafe finding: what
// kind of change, where in the CRD, and what it breaks.
type Reason struct {
	// Kind is one of the Reason* kinds.
	Kind string `json:"kind"`
	// Version is the CRD version whose schema changed ("" for a change of
	// the whole CRD), or the pair of served versions compared.
	Version string `json:"version,omitempty"`
	// Field is the schema path ("spec.replicas", "spec.ports[*].name"),
	// "" for the version's or the CRD's own change.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// Line is where the change is in the new CRD's manifest, 0 when the
	// CRD is a catalog's embedded object (whose lines are not the
	// catalog's).
	Line int `json:"line,omitempty"`
}

// The kinds of reasons. OLM v0 refuses an upgrade that removes a stored
// version; the others are what OLM v1's preflight refuses besides.
const (
	ReasonStoredVersionRemoved = "stored-version-removed"
	ReasonScopeChanged         = "scope-changed"
	ReasonFieldRemoved         = "field-removed"
	ReasonTypeChanged          = "type-changed"
	ReasonRequiredAdded        = "required-added"
	ReasonEnumRemoved          = "enum-removed" // values removed, or an enum added
	ReasonDefaultChanged       = "default-changed"
	ReasonValidationTightened  = "validation-tightened" // a bound, the format
	ReasonOneOfChanged         = "oneof-changed"
	ReasonUnhandled            = "unhandled-change" // no rule: the preflight refuses it
)

// shownReasons is how many reasons a finding's message spells out; the
// rest are counted (and all are in Finding.Reasons).
const shownReasons = 5

// crdFinding makes the one finding of an upgrade edge and a CRD of its
// new bundle, with every unsafe change as a reason. It is at the CRD's
// manifest in a bundle directory, or at the bundle's name in a catalog.
func crdFinding(from, to *bundle, n *object, problems []crdProblem, channel string) Finding {
	reasons := make([]Reason, len(problems))
	for i, p := range problems {
		reasons[i] = Reason{Kind: p.kind, Version: p.version, Field: p.path, Message: p.msg}
		if !n.inCatalog {
			reasons[i].Line = p.line
		}
	}
	subject := "CRD " + n.name
	if n.inCatalog && to.decl != nil {
		subject = fmt.Sprintf("CRD %s (the bundle's olm.bundle.object)", n.name)
	}
	f := objectFinding(ruleCRDUpgrade, Error, to, n, nil, "upgrade from %s: %s", from.name, reasonsText(subject, reasons))
	f.Channel = channel
	f.Reasons = reasons
	return f
}

// reasonsText is "CRD X, version V, field F: message" for one reason;
// for more, it spells out the first ones and counts the others.
func reasonsText(subject string, reasons []Reason) string {
	if len(reasons) == 1 {
		if where := reasonPlace(&reasons[0]); where != "" {
			return subject + ", " + where + ": " + reasons[0].Message
		}
		return subject + ": " + reasons[0].Message
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d unsafe changes: ", subject, len(reasons))
	for i := range reasons {
		if i == shownReasons {
			fmt.Fprintf(&b, "; and %d more", len(reasons)-shownReasons)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d) %s", i+1, reasonText(&reasons[i]))
	}
	return b.String()
}

// reasonText is "version V, field F: message".
func reasonText(r *Reason) string {
	if where := reasonPlace(r); where != "" {
		return where + ": " + r.Message
	}
	return r.Message
}

// reasonPlace is "version V, field F", as much of it as there is.
func reasonPlace(r *Reason) string {
	var where []string
	if r.Version != "" {
		where = append(where, "version "+r.Version)
	}
	if r.Field != "" {
		where = append(where, "field "+r.Field)
	}
	return strings.Join(where, ", ")
}
