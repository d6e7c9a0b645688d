// The APIs a bundle provides (its CRDs, its CSV's owned API services)
// and requires (its CSV's required CRDs and API services).

package registryv1

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// apiKey identifies an API a bundle provides or requires.
type apiKey struct {
	group, version, kind, plural string
}

// String is how errors show the key: group/version/kind (plural).
func (k apiKey) String() string {
	return fmt.Sprintf("%s/%s/%s (%s)", k.group, k.version, k.kind, k.plural)
}

// providedAPIs lists the APIs the bundle's CRDs (v1: every version; v1beta1:
// every version and spec.version) and the CSV's owned API services provide.
func (b *Bundle) providedAPIs() ([]apiKey, error) {
	var keys []apiKey
	for _, crd := range b.crds {
		apiVersion := crd.StringAt("apiVersion")
		version := apiVersion[strings.LastIndex(apiVersion, "/")+1:]
		if version != "v1" && version != "v1beta1" {
			continue
		}
		group := crd.StringAt("spec", "group")
		names := crd.At("spec", "names")
		kind, plural := names.StringAt("kind"), names.StringAt("plural")
		if vs := crd.At("spec", "versions"); vs != nil && vs.Kind == value.Array {
			for i := range vs.Items {
				keys = append(keys, apiKey{group, vs.Items[i].StringAt("name"), kind, plural})
			}
		}
		if version == "v1beta1" {
			if v := crd.StringAt("spec", "version"); v != "" {
				keys = append(keys, apiKey{group, v, kind, plural})
			}
		}
	}
	owned, _, err := b.apiServiceDefinitions()
	if err != nil {
		return nil, err
	}
	keys = append(keys, owned...)
	return keys, nil
}

// description is the part of a CRD or API service description the API keys
// come from.
type description struct {
	Name    string `json:"name"`
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// definitions reads the owned and required descriptions of the CSV's
// spec.customresourcedefinitions or spec.apiservicedefinitions (field).
func (b *Bundle) definitions(field string) (owned, required []description, err error) {
	v := b.CSV.At("spec", field)
	if v == nil || v.Kind == value.Null {
		return nil, nil, nil
	}
	var defs struct {
		Owned    []description `json:"owned"`
		Required []description `json:"required"`
	}
	if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &defs); err != nil {
		return nil, nil, &position.Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.%s: %w", field, err)}
	}
	return defs.Owned, defs.Required, nil
}

// apiServiceDefinitions lists the API services the CSV owns and requires.
func (b *Bundle) apiServiceDefinitions() (owned, required []apiKey, err error) {
	o, r, err := b.definitions("apiservicedefinitions")
	for _, d := range o {
		owned = append(owned, apiKey{d.Group, d.Version, d.Kind, d.Name})
	}
	for _, d := range r {
		required = append(required, apiKey{d.Group, d.Version, d.Kind, d.Name})
	}
	return owned, required, err
}

// definitionLine is the line of the CSV's owned or required (list) CRD
// description i; 0 when not known.
func (b *Bundle) definitionLine(list string, i int) int {
	if n := b.CSV.At("spec", "customresourcedefinitions", list, strconv.Itoa(i)); n != nil {
		return int(n.Line)
	}
	return 0
}

// crdKey turns a CRD description ("plural.group" name) into an API key.
func crdKey(d description) (apiKey, error) {
	plural, group, ok := strings.Cut(d.Name, ".")
	if !ok {
		return apiKey{}, fmt.Errorf("couldn't parse plural.group from crd name: %s", d.Name)
	}
	return apiKey{group, d.Version, d.Kind, plural}, nil
}

// checkOwnedCRDs checks that every CRD the CSV owns is in the bundle.
func (b *Bundle) checkOwnedCRDs() error {
	provided, err := b.providedAPIs()
	if err != nil {
		return err
	}
	owned, _, err := b.definitions("customresourcedefinitions")
	if err != nil {
		return err
	}
	for i, d := range owned {
		line := b.definitionLine("owned", i)
		key, err := crdKey(d)
		if err != nil {
			return &position.Error{Line: line, Err: err}
		}
		found := false
		for _, p := range provided {
			if p == key {
				found = true
				break
			}
		}
		if !found {
			var have []string
			for _, p := range provided {
				have = append(have, p.String())
			}
			return &position.Error{Line: line, Err: fmt.Errorf("error checking provided apis in bundle %s: couldn't find %s in bundle (the CSV owns it, but no CRD in manifests/ provides that group, version, kind and plural); found: [%s]", b.Name, key, strings.Join(have, ", "))}
		}
	}
	return nil
}

// requiredAPIs lists the APIs the CSV requires: its required CRDs and API
// services.
func (b *Bundle) requiredAPIs() ([]apiKey, error) {
	_, required, err := b.definitions("customresourcedefinitions")
	if err != nil {
		return nil, err
	}
	var keys []apiKey
	for i, d := range required {
		key, err := crdKey(d)
		if err != nil {
			return nil, &position.Error{Line: b.definitionLine("required", i), Err: err}
		}
		keys = append(keys, key)
	}
	_, apis, err := b.apiServiceDefinitions()
	if err != nil {
		return nil, err
	}
	return append(keys, apis...), nil
}
