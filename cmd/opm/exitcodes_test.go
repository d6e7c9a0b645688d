package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/spf13/cobra"
)

// TestExitCodesCoverEveryCommand checks that testdata/script/exitcodes.txtar
// runs every command with an unknown flag, with the exit code the rule
// gives (docs/exit-codes.md): 2 for our commands, 1 for upstream's
// (validate: 2).
func TestExitCodesCoverEveryCommand(t *testing.T) {
	data, err := os.ReadFile("testdata/script/exitcodes.txtar")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^exitcode (\d) (opm(?: [a-z0-9-]+)*) --bogus-flag$`).FindAllStringSubmatch(string(data), -1) {
		rows[m[2]] = m[1]
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == cobra.ShellCompRequestCmd || c.Name() == cobra.ShellCompNoDescRequestCmd {
			return
		}
		want := "1"
		if ours.MatchString(c.CommandPath()) {
			want = "2"
		}
		if got := exitCode(c, errTest); got != int(want[0]-'0') {
			t.Errorf("%s: a usage error exits %d, want %s", c.CommandPath(), got, want)
		}
		switch got, ok := rows[c.CommandPath()]; {
		case !ok:
			t.Errorf("exitcodes.txtar has no row %q", "exitcode "+want+" "+c.CommandPath()+" --bogus-flag")
		case got != want:
			t.Errorf("exitcodes.txtar expects %s for %s with an unknown flag, the rule gives %s", got, c.CommandPath(), want)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

var errTest = usageError{os.ErrInvalid}

// ours are the commands whose usage errors exit 2: our own, and validate
// (upstream's, but 2 when it cannot run, keeping 1 for an invalid catalog).
var ours = regexp.MustCompile(`^opm (alpha (catalog|lint|olmv1|diff|filter)|validate)( |$)`)
