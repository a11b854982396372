package content

import (
	"bytes"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/gabriel-vasile/mimetype"
)

// Kind is the type of a Content, as it appears in a content object's "type".
type Kind string

// The kinds of content.
const (
	KindText  Kind = "text"
	KindImage Kind = "image"
	KindPDF   Kind = "pdf"
	KindFile  Kind = "file"
)

// SniffLen is how many leading bytes Detect needs to recognise a format.
const SniffLen = 3072

// byExtension covers what magic bytes cannot tell apart from plain text, and
// pins the answers the system's mime.types would otherwise vary (".ts" is
// TypeScript here, not an MPEG stream).
var byExtension = map[string]string{
	".txt": "text/plain", ".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".json": "application/json",
	".jsonl": "application/jsonl", ".ndjson": "application/jsonl",
	".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml", ".toml": "application/toml",
	".html": "text/html", ".htm": "text/html", ".css": "text/css", ".svg": "image/svg+xml",
	".js": "text/javascript", ".mjs": "text/javascript", ".ts": "text/typescript", ".tsx": "text/typescript",
	".py": "text/x-python", ".go": "text/x-go", ".rs": "text/x-rust", ".java": "text/x-java",
	".c": "text/x-c", ".h": "text/x-c", ".cpp": "text/x-c++", ".lua": "text/x-lua",
	".sh": "text/x-shellscript", ".bash": "text/x-shellscript", ".sql": "application/sql",
	".log": "text/plain", ".ini": "text/plain", ".cfg": "text/plain", ".conf": "text/plain",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}

// RecordedMIME is the MIME type to show for a file: the one the index
// recorded (sniffed from its bytes), or when there is none (a folder
// without an index) the one its extension suggests.
func RecordedMIME(name, recorded string) string {
	if recorded != "" {
		return recorded
	}
	return MIMEByExtension(name)
}

// MIMEByExtension returns the MIME type convfiles assumes for name's
// extension without reading it, or "application/octet-stream".
func MIMEByExtension(name string) string {
	if m, ok := byExtension[strings.ToLower(path.Ext(name))]; ok {
		return m
	}
	return "application/octet-stream"
}

// DetectReader decides the kind and MIME type of a file of size bytes from
// its name and the first bytes r yields; it reads at most SniffLen bytes.
func DetectReader(name string, r io.Reader, size int64) (Kind, string) {
	head := make([]byte, SniffLen)
	n, _ := io.ReadFull(r, head)
	return Detect(name, head[:n], int64(n) == size)
}

// SniffMIME names the MIME type of a file from its name and its first bytes
// (at most SniffLen; fewer means they are the whole file). It is the
// engine.Options.Sniff of every indexed Store.
func SniffMIME(name string, head []byte) string {
	_, mt := Detect(name, head, len(head) < SniffLen)
	return mt
}

// HeadRecorder passes bytes through and keeps the first SniffLen of them,
// so a stream can be typed as it is written instead of read back.
type HeadRecorder struct {
	R    io.Reader
	Head []byte
}

// Read reads from R, keeping what falls within the first SniffLen bytes.
func (h *HeadRecorder) Read(p []byte) (int, error) {
	n, err := h.R.Read(p)
	if room := SniffLen - len(h.Head); room > 0 {
		h.Head = append(h.Head, p[:min(n, room)]...)
	}
	return n, err
}

// Detect decides the kind and MIME type of a file from its name and its
// leading bytes (at least SniffLen of them when the file is that long).
// complete says head is the whole file, which makes the UTF-8 check exact.
func Detect(name string, head []byte, complete bool) (Kind, string) {
	m := mimetype.Detect(head)
	mt := m.String()
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = mt[:i]
	}
	generic := mt == "application/octet-stream" || mt == "text/plain" || magicInText(mt, head, complete)
	if !generic {
		if k := kindOf(mt, head, complete); k != KindFile || !strings.HasPrefix(mt, "text/") {
			return k, mt
		}
		return KindFile, "application/octet-stream"
	}
	// The extension only names the kind of text (markdown, TypeScript, CSV);
	// it never turns bytes that are not text into text, an image or a PDF.
	if ext := MIMEByExtension(name); kindOf(ext, head, complete) == KindText {
		return KindText, ext
	}
	if looksText(head, complete) {
		return KindText, "text/plain"
	}
	return KindFile, "application/octet-stream"
}

// magicInText reports that a binary format was recognised by a few magic
// bytes at the start of what is plain text: a note that begins "MZ", "BM",
// "PK" or "ID3". Files of those formats hold control bytes within their
// first kilobytes; text holds none. Formats written in text (PDF, SVG,
// HTML, PostScript) keep their type.
func magicInText(mt string, head []byte, complete bool) bool {
	if kindOf(mt, head, complete) == KindText || mt == "application/pdf" || mt == "application/postscript" ||
		strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "+json") || !looksText(head, complete) {
		return false
	}
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b {
			return false
		}
	}
	return true
}

func kindOf(mt string, head []byte, complete bool) Kind {
	switch {
	case strings.HasPrefix(mt, "image/"):
		return KindImage
	case mt == "application/pdf":
		return KindPDF
	case strings.HasPrefix(mt, "text/"), mt == "application/json", mt == "application/xml",
		mt == "application/yaml", mt == "application/toml", mt == "application/sql",
		mt == "application/jsonl", mt == "application/x-ndjson", strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+json"):
		if looksText(head, complete) {
			return KindText
		}
	}
	return KindFile
}

// looksText reports whether b is UTF-8 without NUL bytes. When b is only the
// head of a file, a rune cut at the end is forgiven.
func looksText(b []byte, complete bool) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	if utf8.Valid(b) {
		return true
	}
	if complete {
		return false
	}
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.Valid(b[:len(b)-i]) {
			return true
		}
	}
	return false
}
