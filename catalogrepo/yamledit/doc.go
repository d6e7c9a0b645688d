// Package yamledit edits YAML (and JSON) files in place, the way a person
// would: only the edited nodes' text changes, and comments, key order,
// quoting, blank lines and every unrelated line stay byte for byte.
//
// The file is parsed with yaml.v3 to find where each node is; edits
// (Append, Remove, Set, Delete) are recorded against those original
// positions and applied together by Bytes as splices of the original text.
// Inserted text follows the file's own style: its line ends, the
// indentation and '-' layout of neighbouring items, whether sequences are
// indented under their key, flow or JSON layout, and its quotes. Before
// Bytes hands back the new text it parses it again and compares it with
// the original document decoded as generic values with the same edits
// applied; if they differ it returns an error rather than wrong YAML.
//
// What cannot be edited safely is refused with an error naming the file
// and line: editing through an alias or inside an anchor an alias
// repeats, comments inside a flow collection, tab-indented lines, line
// breaks other than LF and CRLF, and overlapping edits.
package yamledit
