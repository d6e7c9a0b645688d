package main

import (
	"embed"
	"strings"
)

// The long help texts and examples of the commands are files of their
// own in help/: <command>.txt is a command's long help, and
// <command>.example.txt its examples, as cobra prints them.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the text of help/<name>.txt, without the file's last
// newline; a name with no file (a mistake the reference docs test
// catches) is "".
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(b), "\n")
}
