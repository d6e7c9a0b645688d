// Typed decoding: operator-controller reads the bundle's CRDs, a CSV's
// deployment specs and webhook object selectors into Kubernetes' Go types
// (k8s.io/api, k8s.io/apiextensions-apiserver) and writes them back from
// those types. That round trip is visible: resource
// quantities come back in canonical form (cpu: 1000m is '1'), empty and
// zero members those types omit are gone (an env var's value: "",
// initialDelaySeconds: 0), members they have no field for are dropped
// (a misplaced spec.template.containers), and members they always write
// appear (a container's resources: {}, a deployment's strategy: {}).
// The functions here make the same round trip through the same types.

package olmv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"

	"github.com/fbcat/opm/encoding/value"
)

// CodeUnknownField is the code of the warning for a member of a CSV's
// deployment spec or of a CRD that Kubernetes' types do not know and so
// drop.
const CodeUnknownField = "unknown-field"

// roundTrip decodes data into v as Kubernetes decodes into its types
// (member names case-sensitive, integers kept), encodes v back and reads
// the result as a tree. It returns the paths of the members v's type has
// no field for, which the round trip dropped, as
// "template.spec.containers[0].foo".
func roundTrip(data []byte, v any) (*value.Value, []string, error) {
	strict, err := kjson.UnmarshalStrict(data, v, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, nil, err
	}
	var unknown []string
	for _, e := range strict {
		var path interface{ FieldPath() string }
		if errors.As(e, &path) {
			unknown = append(unknown, path.FieldPath())
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	tree, err := parseTree(out)
	if err != nil {
		return nil, nil, err
	}
	return tree, unknown, nil
}

// typedDeploymentSpec is a CSV's deployment spec after apps/v1's
// DeploymentSpec round trip, and the members that dropped.
func typedDeploymentSpec(raw json.RawMessage) (*value.Value, []string, error) {
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	return roundTrip(raw, &appsv1.DeploymentSpec{})
}

// typedLabelSelector is a label selector after meta/v1's LabelSelector
// round trip; nil for none.
func typedLabelSelector(raw []byte) (*value.Value, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	tree, _, err := roundTrip(raw, &metav1.LabelSelector{})
	return tree, err
}

// droppedFieldNote is the warning for a member of the CSV's deployment
// i that its type does not know, at the member's line when it is known.
func (b *Bundle) droppedFieldNote(i int, deployment, path string) Reason {
	base := []string{"spec", "install", "spec", "deployments", strconv.Itoa(i), "spec"}
	file, line := b.csvAt(base[:4]...)
	if v := lookupPath(b.pos.csvTree.At(base...), path); v != nil && v.Line > 0 {
		line = int(v.Line)
	}
	return Reason{
		Code: CodeUnknownField,
		Message: fmt.Sprintf("deployment %q: unknown field %q dropped, as operator-controller drops it (apps/v1 DeploymentSpec has no such field; check its indentation)",
			deployment, "spec."+path),
		File: file,
		Line: line,
	}
}

// lookupPath follows a field path of a strict decoding error, such as
// "template.spec.containers[0].foo"; nil where it leads nowhere. Keys
// may hold dots (annotations), so at an object every key the path goes on
// with is tried, longest first.
func lookupPath(v *value.Value, path string) *value.Value {
	switch {
	case v == nil || path == "":
		return v
	case v.Kind == value.Array && strings.HasPrefix(path, "["):
		end := strings.IndexByte(path, ']')
		if end < 0 {
			return nil
		}
		n, err := strconv.Atoi(path[1:end])
		if err != nil || n < 0 || n >= len(v.Items) {
			return nil
		}
		return lookupPath(&v.Items[n], strings.TrimPrefix(path[end+1:], "."))
	case v.Kind == value.Object:
		var found *value.Value
		size := -1
		for i := range v.Fields {
			k := v.Fields[i].Key
			rest, ok := strings.CutPrefix(path, k)
			if !ok || len(k) <= size || rest != "" && rest[0] != '.' && rest[0] != '[' {
				continue
			}
			if next := lookupPath(&v.Fields[i].Value, strings.TrimPrefix(rest, ".")); next != nil {
				found, size = next, len(k)
			}
		}
		return found
	}
	return nil
}

// typedCRDObject is a CRD of the bundle after apiextensions.k8s.io/v1's
// CustomResourceDefinition round trip, as operator-controller reads the
// bundle's CRDs, and the members that dropped.
func typedCRDObject(crd *value.Value) (*value.Value, []string, error) {
	return roundTrip(value.AppendKubernetesJSON(nil, crd), &apiextensionsv1.CustomResourceDefinition{})
}

// droppedCRDFieldNote is the warning for a member of CRD m that its type
// does not know, at the member's line when it is known.
func droppedCRDFieldNote(m manifest, name, path string) Reason {
	line := m.line
	if v := lookupPath(m.obj, path); v != nil && v.Line > 0 {
		line = int(v.Line)
	}
	return Reason{
		Code:    CodeUnknownField,
		Message: fmt.Sprintf("custom resource definition %q: unknown field %q dropped, as operator-controller drops it (apiextensions.k8s.io/v1 has no such field; check its indentation)", name, path),
		File:    m.file,
		Line:    line,
	}
}
