package report

import (
	"fmt"
	"io"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// WriteText writes one line per finding (see finding.Finding.String) and
// a closing summary; withBaseline says the run compared with a baseline.
func WriteText(w io.Writer, res *lint.Result, withBaseline bool) error {
	for i := range res.Findings {
		if _, err := fmt.Fprintln(w, res.Findings[i].String()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, textSummary(res, withBaseline))
	return err
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
