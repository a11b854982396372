package routes

import (
	"path"
	"strings"

	"convfiles/internal/links"
)

// Links builds the browser links of files (see links.Links).
type Links = links.Links

// inlineTypes are the types a browser may show in place: they cannot run
// script in the server's origin. Everything else (HTML, SVG, XML,
// JavaScript, unknown bytes) is sent as an attachment.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/bmp": true,
	"application/pdf": true,
	"text/plain":      true, "text/csv": true, "text/markdown": true, "application/json": true,
}

// disposition returns the Content-Disposition of a file: inline for the safe
// types unless a download was asked for, attachment otherwise, with the
// file's base name as a plain ASCII fallback and as RFC 5987 UTF-8.
func disposition(name, mimeType string, download bool) string {
	kind := "attachment"
	if inlineTypes[mimeType] && !download {
		kind = "inline"
	}
	base := path.Base(name)
	return kind + `; filename="` + asciiFallback(base) + `"; filename*=UTF-8''` + encodeRFC5987(base)
}

// encodeRFC5987 percent-encodes every byte that is not an attr-char of
// RFC 5987, so ";", "," or a quote in a name cannot break the header.
func encodeRFC5987(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// asciiFallback keeps printable ASCII other than quotes and backslashes, and
// replaces the rest with "_", for clients that ignore filename*.
func asciiFallback(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// servedType is the Content-Type header for a sniffed MIME type: text gets
// its charset, so browsers never guess one.
func servedType(mimeType string) string {
	if strings.HasPrefix(mimeType, "text/") || mimeType == "application/json" {
		return mimeType + "; charset=utf-8"
	}
	return mimeType
}

// apiURL returns the absolute URL of an API path.
func apiURL(l Links, p string) string { return strings.TrimSuffix(l.Base, "/") + p }
