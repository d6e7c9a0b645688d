package declcfg

import (
	"strings"
	"testing"
)

func TestIconMediaType(t *testing.T) {
	tests := []struct{ data, want, err string }{
		{"\x89PNG\r\n\x1a\n\x00", "image/png", ""},
		{"\xff\xd8\xff\xe0", "image/jpeg", ""},
		{"GIF89a..", "image/gif", ""},
		{"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp", ""},
		{"\x00\x00\x01\x00\x01\x00", "image/vnd.microsoft.icon", ""},
		{`<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg"></svg>`, "image/svg+xml", ""},
		{"\xef\xbb\xbf  <svg viewBox='0 0 1 1'/>", "image/svg+xml", ""},
		{"\x1f\x8b\x08", "", `detected invalid type "application/gzip": not an image`},
		{"# a readme", "", `detected invalid type "": not an image`},
		{"<html><svg></svg></html>", "", "not an image"},
	}
	for _, tt := range tests {
		got, err := IconMediaType([]byte(tt.data))
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("IconMediaType(%q) = %q, %v; want %q, %q", tt.data, got, err, tt.want, tt.err)
		}
	}
}
