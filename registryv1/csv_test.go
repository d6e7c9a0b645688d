package registryv1

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCSVMetadataProperty(t *testing.T) {
	csv := `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion",
	"metadata":{"name":"op.v1.0.0","namespace":"placeholder","labels":{"l":"1"},"annotations":{"a":"b"}},
	"spec":{"version":"1.0.0","displayName":"Op","description":"d","maturity":"stable","keywords":["k"],
	"install":{"strategy":"deployment","spec":{"deployments":[{"name":"x"}]}},
	"installModes":[{"type":"AllNamespaces","supported":true}],
	"provider":{"name":"P"},"replaces":"op.v0.9.0","skips":["op.v0.8.0"],"unknown":1}}`
	c, err := ParseCSV([]byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	if c.Spec.Replaces != "op.v0.9.0" || c.Spec.Skips[0] != "op.v0.8.0" || c.Metadata.Namespace != "placeholder" ||
		!strings.Contains(string(c.Spec.Install.Spec), `"name":"x"`) {
		t.Errorf("parsed %+v", c)
	}
	p, err := CSVMetadataProperty([]byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"annotations":{"a":"b"},"apiServiceDefinitions":{},"crdDescriptions":{},"description":"d","displayName":"Op",` +
		`"installModes":[{"type":"AllNamespaces","supported":true}],"keywords":["k"],"labels":{"l":"1"},"maturity":"stable","provider":{"name":"P"}}`
	if canonical(t, p.Value) != canonical(t, []byte(want)) || p.Type != "olm.csv.metadata" {
		t.Errorf("%s:\n got %s\nwant %s", p.Type, p.Value, want)
	}
	if _, err := ParseCSV([]byte(`{"spec":{"displayName":5}}`)); err == nil || !strings.Contains(err.Error(), "reading ClusterServiceVersion") {
		t.Errorf("a malformed CSV: %v", err)
	}
}

// canonical is JSON with object keys sorted.
func canonical(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
