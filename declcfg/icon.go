package declcfg

import (
	"bytes"
	"fmt"
	"regexp"
)

// imageSignatures are the magic numbers of the raster image formats an
// icon may be in, with their media types.
var imageSignatures = []struct {
	offset    int
	magic     string
	mediaType string
}{
	{0, "\x89PNG\r\n\x1a\n", "image/png"},
	{0, "\xff\xd8\xff", "image/jpeg"},
	{0, "GIF87a", "image/gif"},
	{0, "GIF89a", "image/gif"},
	{8, "WEBP", "image/webp"}, // after "RIFF" and a length, checked below
	{0, "\x00\x00\x01\x00", "image/vnd.microsoft.icon"},
	{0, "BM", "image/bmp"},
	{0, "II*\x00", "image/tiff"},
	{0, "MM\x00*", "image/tiff"},
	{4, "ftypavif", "image/avif"},
	{4, "ftypheic", "image/heif"},
	{4, "ftypheix", "image/heif"},
	{4, "ftypmif1", "image/heif"},
}

// otherSignatures name common non-image files, for a clear error.
var otherSignatures = []struct {
	magic     string
	mediaType string
}{
	{"\x1f\x8b", "application/gzip"},
	{"PK\x03\x04", "application/zip"},
	{"%PDF-", "application/pdf"},
	{"\x7fELF", "application/x-executable"},
}

var svgRoot = regexp.MustCompile(`(?is)^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!doctype\s+svg[^>]*>\s*)?(?:<!--.*?-->\s*)*<svg[\s>]`)

// IconMediaType detects the media type of an icon from its content: PNG,
// JPEG, GIF, WebP, SVG, ICO, BMP, TIFF, AVIF or HEIF.
func IconMediaType(data []byte) (string, error) {
	for _, s := range imageSignatures {
		if len(data) >= s.offset+len(s.magic) && string(data[s.offset:s.offset+len(s.magic)]) == s.magic {
			if s.mediaType == "image/webp" && !bytes.HasPrefix(data, []byte("RIFF")) {
				continue
			}
			return s.mediaType, nil
		}
	}
	if svgRoot.Match(bytes.TrimPrefix(data[:min(len(data), 64<<10)], []byte("\xef\xbb\xbf"))) {
		return "image/svg+xml", nil
	}
	for _, s := range otherSignatures {
		if bytes.HasPrefix(data, []byte(s.magic)) {
			return "", fmt.Errorf("detected invalid type %q: not an image (icons must be PNG, JPEG, GIF, WebP, SVG, ICO, BMP, TIFF, AVIF or HEIF)", s.mediaType)
		}
	}
	return "", fmt.Errorf("detected invalid type \"\": not an image (icons must be PNG, JPEG, GIF, WebP, SVG, ICO, BMP, TIFF, AVIF or HEIF)")
}
