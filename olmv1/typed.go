// The marks operator-controller's typed Kubernetes structs leave on the
// objects it builds: the renderer decodes CRDs and deployment specs into
// k8s.io/api types and encodes them back, which drops a null
// creationTimestamp and writes the empty structs those types always
// carry (a status, a container's resources). These functions make the
// same marks, so that our objects equal its objects.

package olmv1

import "github.com/fbcat/opm/encoding/value"

// nullValue is JSON null.
var nullValue = value.Value{Kind: value.Null}

// emptyObject is {}.
func emptyObject() value.Value { return value.Value{Kind: value.Object} }

// dropNullTimestamp removes a null metadata.creationTimestamp, which a
// typed round trip leaves out.
func dropNullTimestamp(meta *value.Value) {
	if ts := meta.At("creationTimestamp"); ts != nil && ts.Kind == value.Null {
		deleteField(meta, "creationTimestamp")
	}
}

// ensure sets key to val in object v unless it is there.
func ensure(v *value.Value, key string, val value.Value) {
	if _, ok := v.Get(key); !ok {
		setField(v, key, val)
	}
}

// typedCRD marks a CRD as apiextensions.k8s.io/v1's type does: a status
// with acceptedNames, conditions and storedVersions.
func typedCRD(crd *value.Value) {
	if meta := crd.At("metadata"); meta != nil && meta.Kind == value.Object {
		dropNullTimestamp(meta)
	}
	status := objectAt(crd, "status")
	names := objectAt(status, "acceptedNames")
	ensure(names, "kind", strValue(""))
	ensure(names, "plural", strValue(""))
	ensure(status, "conditions", nullValue)
	ensure(status, "storedVersions", nullValue)
}

// typedDeployment marks a Deployment as apps/v1's type does: a strategy,
// each container's resources, an empty status.
func typedDeployment(obj *value.Value) {
	spec := objectAt(obj, "spec")
	ensure(spec, "strategy", emptyObject())
	dropNullTimestamp(objectAt(spec, "template", "metadata"))
	pod := objectAt(spec, "template", "spec")
	for _, key := range []string{"initContainers", "containers"} {
		list := pod.At(key)
		if list == nil || list.Kind != value.Array {
			continue
		}
		for i := range list.Items {
			if list.Items[i].Kind == value.Object {
				ensure(&list.Items[i], "resources", emptyObject())
			}
		}
	}
	setField(obj, "status", emptyObject())
}
