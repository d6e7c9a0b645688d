package crdcompat

import "strings"

// Change is one unsafe change from an old CRD to a new one: what kind of
// change, where in the CRD, and what it breaks.
type Change struct {
	// Kind is one of the kinds below.
	Kind string `json:"kind"`
	// Version is the CRD version whose schema changed ("" for a change of
	// the whole CRD), or the pair of served versions compared.
	Version string `json:"version,omitempty"`
	// Field is the schema path ("spec.replicas", "spec.ports[*].name"),
	// "" for the version's or the CRD's own change.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// Line is the line of the new CRD's tree the change is at (that of
	// the node the change is at), 0 when it is not known.
	Line int `json:"line,omitempty"`
}

// The kinds of changes. OLM v0 refuses an upgrade that removes a stored
// version or changes the scope; the others are what OLM v1's preflight
// refuses besides.
const (
	StoredVersionRemoved = "stored-version-removed"
	ScopeChanged         = "scope-changed"
	FieldRemoved         = "field-removed"
	TypeChanged          = "type-changed"
	RequiredAdded        = "required-added"
	EnumRemoved          = "enum-removed" // values removed, an enum added, or the enum removed
	DefaultChanged       = "default-changed"
	ValidationTightened  = "validation-tightened" // a bound, the format
	OneOfChanged         = "oneof-changed"
	Unhandled            = "unhandled-change" // no rule: the preflight refuses it
)

// Place is "version V, field F", as much of it as there is.
func (c Change) Place() string {
	var where []string
	if c.Version != "" {
		where = append(where, "version "+c.Version)
	}
	if c.Field != "" {
		where = append(where, "field "+c.Field)
	}
	return strings.Join(where, ", ")
}

// String is "version V, field F: message".
func (c Change) String() string {
	if where := c.Place(); where != "" {
		return where + ": " + c.Message
	}
	return c.Message
}

// nodeChange is an unsafe change of a kind of a schema node, made by its
// member key (where the change points, if the new node has it). same
// says what the preflight's message for it holds, for comparing served
// versions' problems with the old CRD's (see newServedChanges): "" when
// the message says it. grouped marks the changes crdify reports as one
// change it has no rule for, whose message is a diff of what is left of
// the nodes (see unhandledByRule); whole a change under a member the
// preflight compares whole (see wholeKeywords). byChance marks a change
// whose message in crdify lists several values in random order (new
// required fields): the old CRD's same problem has the same message, and
// is dropped, only when the two orders happen to agree.
type nodeChange struct {
	kind, key, msg           string
	same                     string
	grouped, whole, byChance bool
}
