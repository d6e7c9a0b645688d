// Reading Kubernetes objects from manifest and metadata files.

package registryv1

import (
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
)

// FirstObject decodes the first document of a manifest file as upstream's
// YAML-or-JSON decoder does, looking at the first sniff bytes to tell JSON
// from YAML. It reports false for anything that is not an object.
func FirstObject(data []byte, sniff int) (*value.Value, bool) { return firstObject(data, sniff) }

// firstObject decodes the first document of a manifest or metadata file
// the way upstream's YAML-or-JSON decoder does (sniffing only the first
// sniff bytes for a JSON object). It reports false for anything that is not
// an object.
func firstObject(data []byte, sniff int) (*value.Value, bool) {
	if value.LooksLikeJSON(data, sniff) {
		p := value.NewJSONParser(data, 1)
		if v, err := p.Next(); err == nil {
			return &v, v.Kind == value.Object
		}
	}
	docs, _ := fbcyaml.SplitDocuments(data, 1)
	if len(docs) == 0 {
		return nil, false
	}
	v, err := fbcyaml.Decode(docs[0].Data, docs[0].Line)
	if err != nil || v.Kind != value.Object {
		return nil, false
	}
	return &v, true
}
