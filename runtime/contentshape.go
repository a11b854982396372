package runtime

import (
	"encoding/base64"
	"fmt"
	"unsafe"
)

// StringBytes views a string's bytes without copying them. The result is
// read-only: it is only ever handed to a write, never modified.
func StringBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// ContentShapeBytes are the bytes of a value shaped like a content
// object, in JS or Lua: {type: "text", text} or {type: "image" | "pdf" |
// "file", data: base64}; ok is false for any other shape.
func ContentShapeBytes(typ, text string, hasText bool, data string) (b []byte, ok bool, err error) {
	switch typ {
	case "text":
		return []byte(text), hasText, nil
	case "image", "pdf", "file":
		if data == "" {
			return nil, false, nil
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil, false, fmt.Errorf("write_file: the %s content's data is not valid base64", typ)
		}
		return b, true, nil
	}
	return nil, false, nil
}
