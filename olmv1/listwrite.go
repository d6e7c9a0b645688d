package olmv1

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fbcat/opm/encoding/jsonout"
)

// listVerdict is a listed bundle's verdict column.
func listVerdict(b BundleEntry) string {
	if b.Unreadable != "" {
		return "unreadable: not judged"
	}
	verdict := "installable"
	if !b.Installable {
		verdict = "unsupported"
	}
	if !b.ManifestsChecked {
		verdict += " (csv metadata only: manifests not checked)"
	}
	return verdict
}

// WriteListing writes the listing as a table, then why each bundle that
// OLM v1 cannot install is refused.
func WriteListing(w io.Writer, listing []Listing) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PACKAGE\tCHANNEL\tBUNDLE\tVERSION\tOLM V1")
	var why strings.Builder
	seen := map[string]bool{}
	for _, l := range listing {
		for _, ch := range l.Channels {
			for _, b := range ch.Bundles {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Package, ch.Name, b.Name, b.Version, listVerdict(b))
				if b.Installable || seen[l.Package+"/"+b.Name] {
					continue
				}
				seen[l.Package+"/"+b.Name] = true
				fmt.Fprintf(&why, "\n%s %s:\n", l.Package, b.Name)
				if b.Unreadable != "" {
					fmt.Fprintf(&why, "  - unreadable: %s\n", b.Unreadable)
				}
				for _, r := range b.Reasons {
					fmt.Fprintf(&why, "  - %s: %s\n", r.Code, r)
				}
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, why.String())
	return err
}

// WriteListings writes a listing in a format: "json", its JSON document,
// or else the table of WriteListing. When some of its bundles could not
// be read, the error says how many: whether OLM v1 can install them is
// unknown, though their rows are written.
func WriteListings(w io.Writer, format string, listing []Listing) error {
	var err error
	where := "why under the table"
	if format == "json" {
		err, where = jsonout.Write(w, listing), "each row's \"unreadable\""
	} else {
		err = WriteListing(w, listing)
	}
	n := Unjudged(listing)
	if err != nil || n == 0 {
		return err
	}
	what := fmt.Sprintf("%d bundles could not be read, so whether OLM v1 can install them", n)
	if n == 1 {
		what = "1 bundle could not be read, so whether OLM v1 can install it"
	}
	return &UnjudgedError{Msg: fmt.Sprintf("%s is unknown (see %s); the other rows are judged", what, where)}
}

// UnjudgedError is a listing whose rows were written but some of whose
// bundles could not be judged.
type UnjudgedError struct{ Msg string }

func (e *UnjudgedError) Error() string { return e.Msg }
