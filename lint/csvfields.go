package lint

import (
	"slices"

	"github.com/fbcat/opm/lint/csvcheck"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/pipeline"
)

// csv-fields: what operator-framework/api's operatorhub and good-practices
// validators (as operator-sdk bundle validate runs them) and the community
// pipeline's required-fields check ask of a CSV. Each check is a function
// of the CSV; a catalog's bundle is checked where the console reads it:
// the head of each channel. The checks are csvcheck's.
const ruleCSVFields = "csv-fields"

// csvFieldsBundle checks a bundle's CSV. Where operator-sdk's suites run
// on the bundle directory (the community profile), they report what
// csv-fields would (alm-examples, capabilities, categories, icon,
// maintainers, links, resource requests, CRD descriptions: the operatorhub,
// good-practices and CSV validators csv-fields follows), so csv-fields
// says nothing there; in an operator directory whose pipeline checks run,
// the fields check_required_fields finds wrong are left to it (see
// leftToPipeline).
func csvFieldsBundle(c *bundleCheck) []finding.Finding {
	if c.osdkSuites && c.b.files != nil && c.history == "" {
		return nil
	}
	var skip []string
	if c.requiredFields {
		if csv := c.b.theCSV(); csv != nil {
			skip = pipeline.RequiredFieldProblems(csv.root())
		}
	}
	return csvFindings(c.b, "", skip...)
}

// csvFieldsPackage checks the CSV of each channel head that has no bundle
// directory (those are checked as directories).
func csvFieldsPackage(c *packageCheck) []finding.Finding {
	var out []finding.Finding
	seen := map[string]bool{}
	for _, chName := range c.pkg.ChannelNames() {
		head, err := c.pkg.Channels[chName].Head()
		if err != nil || seen[head] || c.cat.dirs[head] != nil {
			continue
		}
		seen[head] = true
		if b := c.bundle(head); b != nil {
			out = append(out, csvFindings(b, chName)...)
		}
	}
	return out
}

// csvFindings checks a bundle's CSV, but for the fields of skip.
func csvFindings(b *bundle, channel string, skip ...string) []finding.Finding {
	csv := b.theCSV()
	if csv == nil {
		return nil
	}
	var out []finding.Finding
	for _, is := range csvcheck.Check(csv.root(), csv.partial) {
		if is.Field != "" && slices.Contains(skip, is.Field) {
			continue // check_required_fields reports it
		}
		f := objectFinding(ruleCSVFields, finding.Warning, b, csv, is.Node, "%s", is.Msg)
		f.Channel = channel
		if is.Field != "" {
			f.Causes = []string{finding.CauseCSVField(is.Field)}
		}
		out = append(out, f)
	}
	return out
}
