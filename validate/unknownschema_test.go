package validate

import (
	"strings"
	"testing"
)

// An unknown olm.* schema is suggested the OLM schema it is near by
// suggest's rule (another case is near; another version, or three edits,
// is not), else given the list of OLM's schemas.
func TestUnknownSchemaMessage(t *testing.T) {
	tests := []struct{ schema, want string }{
		{"olm.channell", `did you mean "olm.channel"?`},
		{"olm.Package", `did you mean "olm.package"?`},
		{"olm.deprecation", `did you mean "olm.deprecations"?`},
		{"olm.bundle.v2", "OLM defines olm.bundle, olm.channel, olm.deprecations, olm.package;"},
		{"olm.chanel1x", "OLM defines"},
		{"olm.catalog.deprecation", `it was replaced by "olm.deprecations"`},
	}
	for _, tt := range tests {
		if got := unknownSchemaMessage(tt.schema); !strings.Contains(got, tt.want) || !strings.HasPrefix(got, `unknown schema "`+tt.schema+`"`) {
			t.Errorf("%s: %s, want one with %s", tt.schema, got, tt.want)
		}
	}
}
