package report

import (
	"github.com/fbcat/opm/lint/change"

	"encoding/json"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// The pull-request summary: GitHub-flavoured markdown for a job summary
// ($GITHUB_STEP_SUMMARY) or a pull-request comment. It says what the
// change did to each catalog (bundles added, removed and deprecated,
// channel heads before and after, and the upgrade graph of each changed
// channel as a mermaid flowchart) and what lint found that is new. Big
// changes stay readable: catalogs changed the same way are shown once,
// graphs are folded in <details> and capped, lists are cut.

// MarkdownOptions shapes the summary.
type MarkdownOptions struct {
	// Passed is the run's verdict, as its exit status says it.
	Passed bool
	// Baseline is what the run compared with (lint.Options.Baseline); ""
	// says there was nothing to compare with: no changes are shown and
	// every finding is listed.
	Baseline string
}

// The summary's caps.
const (
	maxMarkdownGraphs   = 12 // changed channels drawn
	maxMarkdownFindings = 50 // rows of the findings table
	maxMarkdownNames    = 20 // bundles named in a list
)

// WriteMarkdown writes the pull-request summary of a lint run.
func WriteMarkdown(w io.Writer, res *lint.Result, opts MarkdownOptions) error {
	var b strings.Builder
	listed := listedFindings(res.Findings, opts.Baseline != "")
	sum := finding.Summarize(res.Findings)
	verdict := "✅ passed"
	if !opts.Passed {
		verdict = "❌ failed"
	}
	fmt.Fprintf(&b, "## opm lint: %s\n\n", verdict)
	kind := "new "
	if opts.Baseline == "" {
		kind = ""
	}
	fmt.Fprintf(&b, "**%d %s%s, %d %s%s**", sum.Errors, kind, plural(sum.Errors, "error"), sum.Warnings, kind, plural(sum.Warnings, "warning"))
	if opts.Baseline != "" {
		fmt.Fprintf(&b, " · %d existing", sum.Existing)
	}
	fmt.Fprintf(&b, " · %d suppressed · %d %s run", sum.Suppressed, len(res.Rules), plural(len(res.Rules), "rule"))
	if opts.Baseline != "" {
		fmt.Fprintf(&b, " · compared with %s", mdCode(opts.Baseline))
	}
	b.WriteString("\n\n")
	writeChangesMarkdown(&b, res.Changes, opts.Baseline != "")
	writeFindingsMarkdown(&b, listed, opts.Baseline != "")
	if len(res.Notes) > 0 {
		b.WriteString("<details><summary>Notes</summary>\n\n")
		for _, n := range res.Notes {
			fmt.Fprintf(&b, "- %s\n", mdText(n))
		}
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// listedFindings picks the findings the summary lists: the new ones;
// without a baseline every one that is not suppressed. Summarize counts
// them all.
func listedFindings(fs []finding.Finding, withBaseline bool) (listed []finding.Finding) {
	for _, f := range fs {
		if f.Suppressed == "" && (!withBaseline || f.BaselineState != finding.BaselineUnchanged) {
			listed = append(listed, f)
		}
	}
	return listed
}

// writeChangesMarkdown writes the changes, catalogs changed alike
// together.
func writeChangesMarkdown(b *strings.Builder, changes []change.Catalog, withBaseline bool) {
	b.WriteString("### Changes\n\n")
	if !withBaseline {
		b.WriteString("_No baseline: give `--baseline` (a git ref such as `origin/main`) to see what the change does to each catalog and which findings it introduces._\n\n")
		return
	}
	if len(changes) == 0 {
		b.WriteString("No catalog changed.\n\n")
		return
	}
	graphs := 0
	for _, group := range groupChanges(changes) {
		writeCatalogGroup(b, group)
		for _, p := range group[0].Packages {
			writePackageMarkdown(b, p, &graphs)
		}
	}
	if graphs > maxMarkdownGraphs {
		fmt.Fprintf(b, "_%d more changed %s not drawn._\n\n", graphs-maxMarkdownGraphs, plural(graphs-maxMarkdownGraphs, "channel"))
	}
}

// groupChanges puts together the catalogs whose packages changed the
// same way (a release added to every OpenShift catalog), in order.
func groupChanges(changes []change.Catalog) [][]change.Catalog {
	var groups [][]change.Catalog
	index := map[string]int{}
	for _, c := range changes {
		data, _ := json.Marshal(struct {
			New      bool
			Packages []change.Package
		}{c.New, c.Packages})
		key := string(data)
		if i, ok := index[key]; ok {
			groups[i] = append(groups[i], c)
			continue
		}
		index[key] = len(groups)
		groups = append(groups, []change.Catalog{c})
	}
	return groups
}

// writeCatalogGroup heads the changes of catalogs changed alike.
func writeCatalogGroup(b *strings.Builder, group []change.Catalog) {
	var versions, dirs []string
	for _, c := range group {
		versions = append(versions, c.OpenShift)
		dirs = append(dirs, mdCode(c.Catalog))
	}
	if versions[0] != "" && !slices.Contains(versions, "") {
		fmt.Fprintf(b, "#### OpenShift %s\n\n", strings.Join(versions, ", "))
	} else {
		more := ""
		if len(group) > 1 {
			more = fmt.Sprintf(" and %d more", len(group)-1)
		}
		fmt.Fprintf(b, "#### %s%s\n\n", mdText(group[0].Catalog), more)
	}
	what := "Catalog"
	if len(group) > 1 {
		what = "The same change in the catalogs"
	}
	fmt.Fprintf(b, "%s %s", what, cutList(dirs))
	if group[0].New {
		b.WriteString(" (new)")
	}
	b.WriteString(".\n\n")
}

// writePackageMarkdown writes what changed in one package; graphs counts
// the changed channels met so far, drawn up to the cap.
func writePackageMarkdown(b *strings.Builder, p change.Package, graphs *int) {
	fmt.Fprintf(b, "**%s**", mdCode(p.Package))
	switch {
	case p.New:
		b.WriteString(" (new package)")
	case p.Gone:
		b.WriteString(" (package removed)")
	}
	if p.Deprecated {
		b.WriteString(" (package deprecated)")
	}
	b.WriteString("\n\n")
	for _, l := range []struct {
		what  string
		names []string
	}{{"Added", p.Added}, {"Removed", p.Removed}, {"Deprecated", p.DeprecatedBundles}} {
		if len(l.names) > 0 {
			fmt.Fprintf(b, "- %s: %s\n", l.what, cutList(codes(l.names)))
		}
	}
	b.WriteString("\n")
	if len(p.Channels) == 0 {
		return
	}
	b.WriteString("| Channel | Head before | Head after |\n|---|---|---|\n")
	for _, c := range p.Channels {
		name := mdCode(c.Channel)
		switch {
		case c.Before == nil:
			name += " (new)"
		case c.After == nil:
			name += " (removed)"
		}
		if c.Deprecated {
			name += " (deprecated)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", name, orDash(c.HeadBefore), orDash(c.HeadAfter))
	}
	b.WriteString("\n")
	for _, c := range p.Channels {
		*graphs++
		if *graphs > maxMarkdownGraphs {
			continue
		}
		fmt.Fprintf(b, "<details><summary>Upgrade graph of channel <code>%s</code>: before and after</summary>\n\n```mermaid\n", html.EscapeString(c.Channel))
		writeChannelMermaid(b, c)
		b.WriteString("```\n\n</details>\n\n")
	}
}

// writeFindingsMarkdown writes the findings table.
func writeFindingsMarkdown(b *strings.Builder, fs []finding.Finding, withBaseline bool) {
	title := "Findings"
	if withBaseline {
		title = "New findings"
	}
	fmt.Fprintf(b, "### %s\n\n", title)
	if len(fs) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	b.WriteString("| | Rule | Where | Finding |\n|---|---|---|---|\n")
	for i, f := range fs {
		if i == maxMarkdownFindings {
			fmt.Fprintf(b, "\n_%d more: see the full report (`-o text`, `json` or `sarif`)._\n", len(fs)-i)
			break
		}
		icon := "⚠️ warning"
		if f.Severity == finding.Error {
			icon = "❌ error"
		}
		msg := f.Message
		if s := f.Subject(); s != "" {
			msg = s + ": " + msg
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", icon, mdCode(f.Rule), orDash(f.Location()), mdText(msg))
	}
	b.WriteString("\n")
}

// mdText escapes text for a markdown line or table cell.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode writes s as a code span (in a table cell too), or as escaped
// text when it holds a backtick.
func mdCode(s string) string {
	if strings.ContainsAny(s, "`\n\r") {
		return mdText(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

func codes(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = mdCode(n)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return mdCode(s)
}

// cutList joins items, at most maxMarkdownNames of them.
func cutList(items []string) string {
	if len(items) > maxMarkdownNames {
		return strings.Join(items[:maxMarkdownNames], ", ") + fmt.Sprintf(" and %d more", len(items)-maxMarkdownNames)
	}
	return strings.Join(items, ", ")
}

// WriteMarkdownFailure writes the summary of a run that could not lint
// (exit status 2), saying why.
func WriteMarkdownFailure(w io.Writer, reason string) error {
	_, err := fmt.Fprintf(w, "## opm lint: ⛔ could not run\n\n%s\n", mdText(reason))
	return err
}
