package ops

import (
	"fmt"
	"strings"

	"convfiles/content"
	"convfiles/files"
)

// checkDeclaredMIME refuses a MIME type a caller declares for a new file
// when the file's name and bytes say otherwise. convfiles records the
// type the bytes have, so a declared type is never a way to serve bytes
// as something they are not; a declaration that agrees, that names a
// kind of text for text, or any type for an empty file of no known kind,
// is taken.
func checkDeclaredMIME(name, declared string, data []byte) error {
	if declared == "" {
		return nil
	}
	declared = strings.ToLower(strings.TrimSpace(declared))
	if i := strings.IndexByte(declared, ';'); i >= 0 {
		declared = strings.TrimSpace(declared[:i])
	}
	kind, sniffed := content.Detect(name, data, true)
	switch {
	case declared == sniffed, sniffed == "application/octet-stream" && len(data) == 0:
		return nil
	case kind == content.KindText && (strings.HasPrefix(declared, "text/") || declared == "application/json" || strings.HasSuffix(declared, "+json")):
		return nil
	}
	return files.E("create", files.KindInvalid, name, fmt.Sprintf(
		"mime_type %s does not match the file: its name and content make it %s. convfiles records the type the bytes have; leave mime_type out, or name the file for its type", declared, sniffed), nil)
}
