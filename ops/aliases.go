package ops

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// seedNames are the argument names of seed 004's format tools (metaclaw's
// files.spreadsheet, files.pdf and files.image) where convfiles names the
// same argument otherwise, per operation. Every format operation also
// takes fileId for its file.
var seedNames = map[string]map[string]string{
	"spreadsheet_write_range": {"startCell": "start", "data": "values"},
	"spreadsheet_insert_rows": {"afterRow": "at"},
	"spreadsheet_delete_rows": {"startRow": "at"},
	"pdf_delete_page":         {"pageNum": "page"},
	"pdf_add_image":           {"imageFileId": "image"},
	"pdf_merge":               {"fileIds": "files", "outputName": "output"},
	"pdf_split_pages":         {"outputNames": "names"},
}

// ArgAliases returns the other names op's top-level arguments are taken
// under, each with the name it stands for: seed 004's names of a format
// operation. Besides these, a format operation takes any argument in
// camelCase (maxWidth for max_width) and its options as one object
// (options: {fit: "cover"}), as seed 004's tools were called.
func (op Op) ArgAliases() map[string]string {
	if op.Group == "" {
		return nil
	}
	out := map[string]string{"fileId": "file"}
	for seed, ours := range seedNames[op.Name] {
		out[seed] = ours
	}
	return out
}

// CanonicalArgs rewrites the arguments of a format operation given the
// seed's way into convfiles' names: aliases, camelCase keys at any depth
// (where the snake_case one is a field) and an options object spread
// into the arguments. Other operations' arguments, and arguments that
// are not a JSON object, are returned as they are: decoding them says
// what is wrong. Naming one argument twice is refused.
func (op Op) CanonicalArgs(raw json.RawMessage) (json.RawMessage, error) {
	if op.Group == "" {
		return raw, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw, nil
	}
	top, ok := v.(map[string]any)
	if !ok {
		return raw, nil
	}
	known := fieldTypes(op.In)
	spread := false
	if opts, ok := top["options"].(map[string]any); ok && known["options"] == nil {
		delete(top, "options")
		spread = true
		for k, x := range opts {
			if _, dup := top[k]; dup {
				return nil, fmt.Errorf("%s is given twice, in options and beside it: give it once", k)
			}
			top[k] = x
		}
	}
	changed, err := canonicalObject(top, known, op.ArgAliases())
	switch {
	case err != nil:
		return nil, err
	case !changed && !spread:
		return raw, nil
	}
	return json.Marshal(top)
}

// canonicalObject renames obj's keys that are aliases or camelCase
// spellings of the fields of known, and does the same inside their
// values; it reports whether it renamed any.
func canonicalObject(obj map[string]any, known map[string]reflect.Type, aliases map[string]string) (bool, error) {
	changed := false
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	for _, k := range keys {
		to := k
		if known[k] == nil {
			if a, ok := aliases[k]; ok {
				to = a
			} else if s := SnakeCase(k); known[s] != nil {
				to = s
			}
		}
		if to != k {
			if _, dup := obj[to]; dup {
				return false, fmt.Errorf("give %s or %s, not both: they are the same argument", to, k)
			}
			obj[to] = obj[k]
			delete(obj, k)
			changed = true
		}
		c, err := canonicalValue(obj[to], known[to])
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	return changed, nil
}

// canonicalValue renames the keys of objects inside v, a value decoded
// for a field of type t.
func canonicalValue(v any, t reflect.Type) (bool, error) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		if t != nil && t.Kind() == reflect.Struct {
			return canonicalObject(x, fieldTypes(t), nil)
		}
	case []any:
		if t == nil || t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return false, nil
		}
		changed := false
		for _, el := range x {
			c, err := canonicalValue(el, t.Elem())
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
		return changed, nil
	}
	return false, nil
}

// fieldTypes maps the JSON names of a struct's fields, embedded structs'
// included, to their types.
func fieldTypes(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	eachField(t, func(name string, ft reflect.Type) { out[name] = ft })
	return out
}

// SnakeCase spells a camelCase name in snake_case: maxWidth → max_width.
func SnakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
