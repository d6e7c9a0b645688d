package validate

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fbcat/opm/option"
)

// TestOutput: each format of a result and of a failure, the cap said in
// the caller's words, and options that cannot be.
func TestOutput(t *testing.T) {
	bad := `{"schema":"olm.package","name":"p","defaultChannel":"stable"}` + "\n" + `{"schema":"olm.channel","name":"stable","package":"p","entries":[{"name":"a"},{"name":"b"}]}` + "\n"
	res, err := ValidateBytes(context.Background(), "c.json", []byte(bad), Options{})
	if err != nil || res.Passed() || len(res.Problems) < 2 {
		t.Fatalf("%+v %v", res, err)
	}
	var out, text bytes.Buffer
	o := Output{MaxProblems: 1, Words: map[option.Name]string{optionMaxProblems: "--max-problems"}}
	if err := o.Write(&out, &text, res, ""); err != nil || out.Len() != 0 || !strings.Contains(text.String(), "more left out by --max-problems 1)") {
		t.Errorf("text: %q %q %v", out.String(), text.String(), err)
	}
	for format, want := range map[string]string{"json": `"omitted": `, "yaml": "omitted: ", "sarif": `"omittedProblems": `} {
		out.Reset()
		o.Format = format
		if err := o.Write(&out, &text, res, ""); err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("%s: %s %v", format, out.String(), err)
		}
		out.Reset()
		if err := o.Write(&out, &text, nil, "could not run"); err != nil || !strings.Contains(out.String(), "could not run") {
			t.Errorf("%s failure: %s %v", format, out.String(), err)
		}
	}
	for _, o := range []Output{{MaxProblems: -1}, {Format: "xml"}} {
		if err := o.Validate(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
