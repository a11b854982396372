package runtime

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unsafe"

	"convfiles/content"
)

// StringBytes views a string's bytes without copying them. The result is
// read-only: it is only ever handed to a write, never modified.
func StringBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// ContentField reads one string field of a script's object: its value
// and whether the object has it as a string.
type ContentField func(key string) (string, bool)

// dataFields are the fields that may hold a content's bytes, as base64:
// convfiles' own data, and SABRE's names for each kind (seed 003).
var dataFields = map[string][]string{
	"image": {"data", "image_data"},
	"pdf":   {"data", "pdf_data"},
	"file":  {"data", "file_data"},
}

// ContentShapeBytes are the bytes of a value shaped like a content
// object, in JS or Lua: {type: "text", text} or {type: "image" | "pdf" |
// "file", data: base64}, or SABRE's shapes of the same: full_text for a
// text, and image_data, pdf_data or file_data (base64) with or without a
// type. ok is false for any other shape, which is saved as JSON.
func ContentShapeBytes(field ContentField) (b []byte, ok bool, err error) {
	typ, _ := field("type")
	if typ == "" {
		typ = sabreKind(field)
	}
	switch typ {
	case "text":
		if text, ok := field("text"); ok {
			return []byte(text), true, nil
		}
		text, ok := field("full_text")
		return []byte(text), ok, nil
	case "image", "pdf", "file":
		for _, key := range dataFields[typ] {
			data, ok := field(key)
			if !ok || data == "" {
				continue
			}
			b, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				return nil, false, fmt.Errorf("write_file: the %s content's %s is not valid base64", typ, key)
			}
			return b, true, nil
		}
	}
	return nil, false, nil
}

// sabreKind is the kind of an object without a type that has one of
// SABRE's content fields: ImageContent(image_data=…, mime_type=…) and
// its kin.
func sabreKind(field ContentField) string {
	for _, k := range [...]struct{ key, kind string }{{"image_data", "image"}, {"pdf_data", "pdf"}, {"file_data", "file"}, {"full_text", "text"}} {
		if _, ok := field(k.key); ok {
			return k.kind
		}
	}
	return ""
}

// ContentString is a content's get_str() in scripts: its text, or its
// one-line description with its link; with the format calls that read it
// (content.Calls), inside the description or after the text.
func ContentString(c content.Content, url string) string {
	str := c.String()
	if c.Kind() == content.KindText {
		return str
	}
	calls := content.Calls(c)
	if strings.HasPrefix(str, "[") {
		str = strings.TrimSuffix(str, "]")
		if url != "" {
			str += ", " + url
		}
		if calls != "" {
			str += "; " + calls
		}
		return str + "]"
	}
	if calls != "" {
		str += "\n\n[" + calls + "]"
	}
	return str
}
