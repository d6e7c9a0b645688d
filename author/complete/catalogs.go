package complete

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
)

// catalogBundles lists the bundles of the smallest committed catalog of
// a template (every catalog of a template holds the same bundles): the
// names of its olm.bundle objects, read from their top-level lines
// without decoding the rest.
func catalogBundles(t *catalogrepo.Template) []string {
	var best *catalogrepo.Catalog
	var bestSize int64
	for _, c := range t.Catalogs {
		st, err := os.Stat(c.File())
		if err == nil && (best == nil || st.Size() < bestSize) {
			best, bestSize = c, st.Size()
		}
	}
	if best == nil {
		return nil
	}
	data, err := os.ReadFile(best.File())
	if err != nil {
		return nil
	}
	if best.Format == declcfg.FormatJSON {
		return jsonBundles(data)
	}
	return yamlBundles(data)
}

// yamlBundles reads the names of the olm.bundle documents of a YAML
// catalog from their top-level name: and schema: lines.
func yamlBundles(data []byte) []string {
	var out []string
	var name, schema string
	end := func() {
		if schema == declcfg.SchemaBundle && name != "" {
			out = append(out, name)
		}
		name, schema = "", ""
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		switch {
		case bytes.HasPrefix(line, []byte("---")):
			end()
		case bytes.HasPrefix(line, []byte("name:")):
			name = scalar(line[len("name:"):])
		case bytes.HasPrefix(line, []byte("schema:")):
			schema = scalar(line[len("schema:"):])
		}
	}
	end()
	return out
}

// scalar is a one-line YAML scalar, unquoted.
func scalar(b []byte) string {
	s := string(bytes.TrimSpace(bytes.TrimSuffix(b, []byte("\r"))))
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		if s[0] == '"' {
			if u, err := strconv.Unquote(s); err == nil {
				return u
			}
		}
		return s[1 : len(s)-1]
	}
	return s
}

// jsonBundles reads the names of the olm.bundle objects of a JSON
// catalog (a stream of objects), skipping their other members.
func jsonBundles(data []byte) []string {
	var out []string
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var obj struct{ Schema, Name string }
		err := dec.Decode(&obj)
		if err != nil { // the end, or text that is no JSON: what was read
			return out
		}
		if obj.Schema == declcfg.SchemaBundle {
			out = append(out, obj.Name)
		}
	}
}
