package runtime

import (
	"convfiles/ops"
	"strings"
)

// Camel writes a snake_case key as camelCase: max_width → maxWidth.
func Camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// camelKeys rewrites the keys of every object in v as camelCase.
func camelKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[Camel(k)] = camelKeys(x)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = camelKeys(x)
		}
		return v
	}
	return v
}

// userKeyed are the arguments whose object keys are the user's own names
// (form field names), never rewritten.
var userKeyed = map[string]bool{"fields": true}

// SnakeKeysUnder rewrites the keys inside the argument named param,
// unless its keys are the user's own.
func SnakeKeysUnder(param string, v any) any {
	if userKeyed[param] {
		return v
	}
	return SnakeKeys(v)
}

// SnakeKeys rewrites the keys of every object in v as snake_case.
func SnakeKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[ops.SnakeCase(k)] = SnakeKeysUnder(k, x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = SnakeKeys(x)
		}
		return out
	}
	return v
}
