// Package report writes what lint found, each presentation in its own
// file: a line per finding and a closing summary (text), the JSON
// document of -o json (Document), a SARIF 2.1.0 log for code scanning
// (SARIF, written by encoding/sarif), and the pull-request summary
// (WriteMarkdown: GitHub-flavoured markdown with a mermaid flowchart of
// each changed channel's upgrade graph). Each also has the form of a run
// that could not lint. The command line picks one and writes it.
package report
