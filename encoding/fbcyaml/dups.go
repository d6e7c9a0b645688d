package fbcyaml

import (
	"bytes"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// topLevelDuplicates finds the repeated keys of a top-level block mapping
// that go-yaml read (and so collapsed) by looking at the lines that start
// with a key at column 1. A key counts only if the decoded mapping has it,
// so that the rare line of a multi-line quoted scalar or flow collection
// that looks like a key cannot count by itself.
func topLevelDuplicates(doc []byte, line int32, v *value.Value) []value.Duplicate {
	var keys []value.Field
	var lines []int32
	for n := line; len(doc) > 0; n++ {
		end := bytes.IndexByte(doc, '\n')
		if end < 0 {
			end = len(doc)
		}
		if k := lineKey(doc[:end]); k != "" {
			if _, ok := v.Get(k); ok {
				keys = append(keys, value.Field{Key: k})
				lines = append(lines, n)
			}
		}
		if end == len(doc) {
			break
		}
		doc = doc[end+1:]
	}
	return value.FindDuplicates(keys, func(i int) (int32, int32) { return lines[i], 1 })
}

// lineKey is the key of a line "key: ..." or "key:" that starts at column
// 1 with a plain scalar of letters, digits and "._-", or the same quoted
// (without escapes), or "".
func lineKey(l []byte) string {
	i, quote := 0, byte(0)
	if len(l) > 0 && (l[0] == '"' || l[0] == '\'') {
		quote, i = l[0], 1
	}
	for i < len(l) && (l[i] >= 'a' && l[i] <= 'z' || l[i] >= 'A' && l[i] <= 'Z' || l[i] >= '0' && l[i] <= '9' || i > 0 && (l[i] == '.' || l[i] == '_' || l[i] == '-')) {
		i++
	}
	key := l[:i]
	if quote != 0 {
		if i >= len(l) || l[i] != quote {
			return ""
		}
		key = l[1:i]
		i++
	}
	if len(key) == 0 || i >= len(l) || l[i] != ':' {
		return ""
	}
	if i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' && l[i+1] != '\r' {
		return ""
	}
	return string(key)
}

// tabInIndentation rewords a syntax error e of doc (which starts at file
// line first) that a tab in the indentation of a line caused: a tab on the
// error's line, or else on the line before it. go-yaml's words for it
// ("found character that cannot start any token") do not say tab.
func tabInIndentation(doc []byte, first int32, e *position.Error) *position.Error {
	for _, line := range []int32{int32(e.Line), int32(e.Line) - 1} {
		if col := indentTab(doc, first, line); col > 0 {
			return &position.Error{Line: int(line), Column: int(col), Message: tabMsg(e.Message)}
		}
	}
	return e
}
