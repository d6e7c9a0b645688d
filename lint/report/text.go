package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// The text report is for people: each finding's first line says where,
// how bad, which rule and about what ("file:line: severity rule [check]:
// subject"), and its message and what the other rules of the same
// problem said ("also RULE [CHECK]: ...") follow on indented lines, wrapped, so that no line is
// longer than maxLine however long a message is (JSON and SARIF keep
// every message whole). A summary per rule and the counts close it.
const (
	// wrapAt is where the indented lines are wrapped.
	wrapAt = 100
	// maxLine is the longest line the report writes: a word longer than
	// a line (a URL, a digest) is cut.
	maxLine = 300
	// indent starts the lines below a finding's first line.
	indent = "    "
	// shownReasons is how many of a CRD upgrade's changes are listed,
	// one a line; -o json has them all.
	shownReasons = 10
)

// WriteText writes each finding (its first line, then its details) and
// the closing summary; withBaseline says the run compared with a
// baseline.
func WriteText(w io.Writer, res *lint.Result, withBaseline bool) error {
	bw := bufio.NewWriter(w)
	for i := range res.Findings {
		writeFinding(bw, &res.Findings[i])
	}
	writeRuleSummary(bw, res.Findings)
	fmt.Fprintln(bw, textSummary(res, withBaseline))
	return bw.Flush()
}

// writeFinding writes one finding.
func writeFinding(w *bufio.Writer, f *finding.Finding) {
	var head strings.Builder
	if loc := f.Location(); loc != "" {
		head.WriteString(loc + ": ")
	}
	fmt.Fprintf(&head, "%s %s", f.Severity, f.Rule)
	if f.Check != "" {
		fmt.Fprintf(&head, " [%s]", f.Check)
	}
	if s := f.Subject(); s != "" {
		head.WriteString(": " + s)
	}
	head.WriteString(f.Marks())
	writeWrappedAs(w, "", indent, head.String(), maxLine)
	writeMessage(w, f)
	for _, r := range related(f) {
		writeWrapped(w, indent, r, wrapAt)
	}
}

// rulesOf are the rules a finding stands for, its own first.
func rulesOf(f *finding.Finding) []string {
	if len(f.Rules) > 0 {
		return f.Rules
	}
	return []string{f.Rule}
}

// writeMessage writes a finding's message below its first line; a CRD
// upgrade's changes one a line.
func writeMessage(w *bufio.Writer, f *finding.Finding) {
	msg := f.Message
	if len(f.Reasons) > 1 {
		if i := strings.Index(msg, " unsafe changes: "); i >= 0 {
			writeWrapped(w, indent, msg[:i+len(" unsafe changes:")], wrapAt)
			for k, r := range f.Reasons {
				if k == shownReasons {
					writeWrapped(w, indent, fmt.Sprintf("- and %d more (-o json lists them)", len(f.Reasons)-shownReasons), wrapAt)
					break
				}
				writeWrapped(w, indent+"- ", r.String(), wrapAt)
			}
			return
		}
	}
	writeWrapped(w, indent, msg, wrapAt)
}

// related are the lines saying what the other rules of a finding's
// problem said: "also RULE [CHECK] at FILE:LINE: MESSAGE", the rules that
// said the same words at the same place on one line, "(the same)" when
// they are the finding's.
func related(f *finding.Finding) []string {
	type said struct{ where, msg string }
	var order []said
	rules := map[said][]string{}
	for _, r := range f.Related {
		where := ""
		if r.File != f.File || r.Line != f.Line {
			where = (&finding.Finding{File: r.File, Line: r.Line}).Location()
		}
		k := said{where, r.Message}
		name := r.Rule
		if r.Check != "" {
			name += " [" + r.Check + "]"
		}
		if _, ok := rules[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(rules[k], name) {
			rules[k] = append(rules[k], name)
		}
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		s := "also " + strings.Join(rules[k], ", ")
		if k.where != "" {
			s += " at " + k.where
		}
		if k.where != "" || k.msg != f.Message {
			s += ": " + k.msg
		} else {
			s += " (the same)"
		}
		out = append(out, s)
	}
	return out
}

// writeWrapped writes text, each of its lines wrapped at width after the
// prefix (continuation lines as long a run of spaces: aligned after a
// list's "- "), no line longer than maxLine.
func writeWrapped(w *bufio.Writer, prefix, text string, width int) {
	writeWrappedAs(w, prefix, strings.Repeat(" ", len(prefix)), text, width)
}

// writeWrappedAs is writeWrapped with the continuation lines' prefix
// given.
func writeWrappedAs(w *bufio.Writer, prefix, cont, text string, width int) {
	for _, para := range strings.Split(text, "\n") {
		line := prefix
		room := func() int { return width - len(line) }
		started := false
		for _, word := range strings.Fields(para) {
			for len(cont)+len(word) > maxLine { // a word longer than a line
				if started {
					w.WriteString(line + "\n")
					line, started = cont, false
				}
				cut := maxLine - len(line)
				w.WriteString(line + word[:cut] + "\n")
				word, line = word[cut:], cont
			}
			switch {
			case !started:
				line += word
			case len(word)+1 <= room():
				line += " " + word
			default:
				w.WriteString(line + "\n")
				line = cont + word
			}
			started = true
		}
		if started {
			w.WriteString(line + "\n")
		}
		prefix = cont
	}
}

// writeRuleSummary writes, for each rule with findings, how many of them
// count (errors, warnings, infos) and how many are existing or
// suppressed: a finding of several rules counts for each.
func writeRuleSummary(w *bufio.Writer, fs []finding.Finding) {
	if len(fs) == 0 {
		return
	}
	type counts struct{ errors, warnings, infos, existing, suppressed int }
	by := map[string]*counts{}
	var order []string
	for i := range fs {
		f := &fs[i]
		for _, r := range rulesOf(f) {
			c := by[r]
			if c == nil {
				c = &counts{}
				by[r] = c
				order = append(order, r)
			}
			switch {
			case f.Suppressed != "":
				c.suppressed++
			case f.BaselineState == finding.BaselineUnchanged:
				c.existing++
			case f.Severity == finding.Error:
				c.errors++
			case f.Severity == finding.Warning:
				c.warnings++
			default:
				c.infos++
			}
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return strings.Compare(a, b) })
	w.WriteString("By rule:\n")
	for _, r := range order {
		c := by[r]
		var parts []string
		for _, p := range []struct {
			n    int
			word string
		}{{c.errors, "error"}, {c.warnings, "warning"}, {c.infos, "info"}, {c.existing, "existing"}, {c.suppressed, "suppressed"}} {
			if p.n > 0 {
				word := p.word
				if p.n != 1 && (word == "error" || word == "warning" || word == "info") {
					word += "s"
				}
				parts = append(parts, fmt.Sprintf("%d %s", p.n, word))
			}
		}
		fmt.Fprintf(w, "  %-28s %s\n", r, strings.Join(parts, ", "))
	}
}

// textSummary is the closing line: the errors, warnings and infos that
// are new (all, without a baseline), then the existing, suppressed and
// fixed ones when there are any.
func textSummary(res *lint.Result, withBaseline bool) string {
	s := finding.Summarize(res.Findings)
	news := ""
	if withBaseline {
		news = "new "
	}
	line := fmt.Sprintf("%d %s%s, %d %s%s", s.Errors, news, plural(s.Errors, "error"), s.Warnings, news, plural(s.Warnings, "warning"))
	if s.Infos > 0 {
		line += fmt.Sprintf(", %d %s%s", s.Infos, news, plural(s.Infos, "info"))
	}
	if withBaseline {
		line += fmt.Sprintf(", %d existing", s.Existing)
	}
	if s.Suppressed > 0 || withBaseline {
		line += fmt.Sprintf(", %d suppressed", s.Suppressed)
	}
	if withBaseline {
		line += fmt.Sprintf(", %d fixed", len(res.Fixed))
	}
	return line + fmt.Sprintf(" (%d %s run)", len(res.Rules), plural(len(res.Rules), "rule"))
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
