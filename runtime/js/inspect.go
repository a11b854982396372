package js

import "github.com/dop251/goja"

// inspect renders one console argument the way Node does for the common
// cases: strings raw, objects and arrays as JSON, everything else as String().
func inspect(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		switch o.ClassName() {
		case "Object", "Array":
			if b, err := o.MarshalJSON(); err == nil {
				return string(b)
			}
		case "Error":
			if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
				return s.String()
			}
		}
	}
	return v.String()
}
