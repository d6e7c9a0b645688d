package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateExitCodes checks validate's exit codes (0 valid, 1 invalid,
// 2 could not run) and that -o writes a document in every case.
func TestValidateExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.Dir(p)
	}
	invalid := write("invalid/c.json", `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}`)
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		json string // the "passed" and "error.message" of -o json, if any
	}{
		{"valid", []string{"../../testdata/catalog"}, 0, ""},
		{"valid json", []string{"../../testdata/catalog", "-o", "json"}, 0, "true"},
		{"invalid", []string{invalid}, 1, ""},
		{"invalid json", []string{invalid, "-o", "json"}, 1, "false: " + invalid + "/c.json:1: package \"foo\": "},
		{"missing", []string{filepath.Join(dir, "nothere")}, 2, ""},
		{"missing json", []string{filepath.Join(dir, "nothere"), "-o", "json"}, 2, "false: stat " + dir + "/nothere: no such file or directory"},
		{"missing yaml", []string{filepath.Join(dir, "nothere"), "-o", "yaml"}, 2, ""},
		{"missing sarif", []string{filepath.Join(dir, "nothere"), "-o", "sarif"}, 2, ""},
		{"empty", []string{empty, "-o", "json"}, 2, "false: " + empty + " holds no catalog objects"},
		{"no argument", []string{"-o", "json"}, 2, "false: accepts 1 arg(s), received 0"},
		{"bad flag value", []string{"-o", "json", invalid, "--max-problems", "x"}, 2, `false: invalid argument "x" for "--max-problems" flag`},
		{"negative max", []string{invalid, "-o", "json", "--max-problems", "-1"}, 2, "false: --max-problems must be 0 (no limit) or more"},
		{"unknown flag", []string{invalid, "--nope"}, 2, ""},
		{"bad output", []string{invalid, "-o", "xml"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"validate"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tt.code, stderr.String())
			}
			format := ""
			for i, a := range tt.args {
				if a == "-o" {
					format = tt.args[i+1]
				}
			}
			checkValidateDocument(t, format, stdout.String(), tt.json)
		})
	}
}

// checkValidateDocument checks what validate -o format wrote: for json,
// "true" or "false: " and the start of error.message, as want says.
func checkValidateDocument(t *testing.T, format, stdout, want string) {
	t.Helper()
	switch format {
	case "json":
		var doc struct {
			Passed bool
			Error  struct{ Message string }
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("stdout is not a JSON document: %v\n%s", err, stdout)
		}
		got := "true"
		if !doc.Passed {
			got = "false: " + doc.Error.Message
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("document says %q, want %q...", got, want)
		}
	case "yaml":
		if !strings.Contains(stdout, "passed: false") || !strings.Contains(stdout, "message: 'stat ") {
			t.Errorf("yaml document:\n%s", stdout)
		}
	case "sarif":
		if !strings.Contains(stdout, `"executionSuccessful": false`) || !strings.Contains(stdout, `"text": "stat `) {
			t.Errorf("sarif log:\n%s", stdout)
		}
	default:
		if stdout != "" {
			t.Errorf("stdout: %s", stdout)
		}
	}
}
