package lint

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/registryv1/openshift"
)

// osdk-operatorhub and osdk-operatorframework: what the community
// pipeline's check_osdk_bundle_validate_operatorhub and
// check_osdk_bundle_validate_operator_framework say of a bundle
// directory. Each runs `operator-sdk bundle validate -o json-alpha1 DIR
// --select-optional name=operatorhub` (or suite=operatorframework)
// `--optional-values=k8s-version=1.N` and fails on each output of type
// error, warns on each other output, with the output's message. Package
// lint/osdk says what operator-sdk prints, in the opm-osdk helper (see
// osdkRunner); both rules share one run of it per bundle. Bundles of
// catalogs are not checked: the pipeline checks the bundle directory of
// a pull request. Nor are, in a pull-request job
// (compared with a git ref), the bundle directories the change left
// alone: they were checked when they were merged, and operator-sdk's
// validators are the costliest part of linting a bundle (they decode
// every CRD into its type and compress every manifest).
const (
	ruleOSDKOperatorHub       = "osdk-operatorhub"
	ruleOSDKOperatorFramework = "osdk-operatorframework"
)

// The pipeline's names of the two checks.
const (
	checkOSDKOperatorHub       = "check_osdk_bundle_validate_operatorhub"
	checkOSDKOperatorFramework = "check_osdk_bundle_validate_operator_framework"
)

// osdkDeprecatedMark marks operator-sdk's notice that the operatorhub
// validator (which the pipeline's check selects) is deprecated: a notice
// about the tool, not the bundle, said once per run (osdkDeprecatedNote)
// instead of once per bundle.
const (
	osdkDeprecatedMark = `The "operatorhub" validator is deprecated`
	osdkDeprecatedNote = `osdk-operatorhub: operator-sdk warns on every bundle that its "operatorhub" validator, which check_osdk_bundle_validate_operatorhub selects, is deprecated (for equivalent validation use "operatorhub/v2", "standardcapabilities" and "standardcategories", which osdk-operatorframework runs); that warning is not repeated as a finding`
)

// osdkNoJSON is the pipeline's failure when operator-sdk prints no JSON:
// it stops when it cannot load the bundle.
const osdkNoJSON = "operator-sdk returned non-JSON output when validating bundle"

func osdkOperatorHubBundle(c *bundleCheck) []finding.Finding {
	return osdkFindings(c, suites.OperatorHub, ruleOSDKOperatorHub, checkOSDKOperatorHub)
}

func osdkOperatorFrameworkBundle(c *bundleCheck) []finding.Finding {
	return osdkFindings(c, suites.OperatorFramework, ruleOSDKOperatorFramework, checkOSDKOperatorFramework)
}

// osdkFindings are the findings of the suite s for a bundle directory
// (or bundle image): one per output, at the place lint/osdk finds for
// it.
func osdkFindings(c *bundleCheck, s suites.Suite, rule, check string) []finding.Finding {
	b := c.b
	if b.files == nil || c.unchanged || c.history != "" {
		return nil
	}
	if !c.osdkAsked {
		c.osdkAsked = true
		c.osdkRun = c.osdk.validate(&suites.Bundle{Dir: b.dir, Files: b.files, KubernetesVersion: osdkKubernetesVersion(b)})
	}
	if c.osdkRun == nil {
		return nil // the run fails with the validator's error
	}
	if err := c.osdkRun.Stopped; err != nil {
		f := bundleFinding(rule, finding.Error, b, b.dir, 0, "%s (operator-sdk stops: %v)", osdkNoJSON, err)
		f.Check = check
		return []finding.Finding{f}
	}
	var out []finding.Finding
	for _, o := range c.osdkRun.Outputs(s) {
		if strings.Contains(o.Message, osdkDeprecatedMark) {
			c.notes.add(osdkDeprecatedNote)
			continue
		}
		sev, file := finding.Warning, b.dir
		if o.Error {
			sev = finding.Error
		}
		if o.File != "" {
			file = filepath.Join(b.dir, filepath.FromSlash(o.File))
		}
		f := bundleFinding(rule, sev, b, file, o.Line, "%s", o.Message)
		f.Check = check
		f.Causes = append(slices.Clip(o.Causes), finding.CauseSaid("operator-sdk", file, o.Line, o.Message))
		out = append(out, f)
	}
	return out
}

// osdkKubernetesVersion is the Kubernetes version the pipeline validates
// a bundle for: that of the latest OpenShift release its
// com.redhat.openshift.versions reaches (the pipeline asks which
// releases the range covers online and takes the first, the latest; an
// open range reaches the newest release known here), every release
// without the annotation or when it is malformed (which openshift-range
// reports).
func osdkKubernetesVersion(b *bundle) string {
	r := openshift.AllVersions()
	if s, _, ok := b.annotations.Get(openshift.AnnotationVersions); ok {
		if rng, _, err := openshift.ParseVersionsAnnotation(s); err == nil {
			r = rng
		}
	}
	return fmt.Sprintf("1.%d", r.Latest().KubernetesMinor())
}
