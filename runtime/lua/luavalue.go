package lua

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// luaMaxDepth bounds how deeply nested a table may be to become JSON (and
// a JSON text to become tables), as the JS side bounds JSON.stringify.
const luaMaxDepth = 200

// luaToGo turns a Lua value into what encoding/json encodes: a table whose
// keys are 1..n is an array, any other table an object (its keys as
// strings), an empty table an object. Functions, userdata and threads
// have no JSON and are refused, as are cycles (by the depth bound).
func luaToGo(v lua.LValue, depth int) (any, error) {
	if depth > luaMaxDepth {
		return nil, fmt.Errorf("tables nest more than %d levels deep (a table that contains itself?)", luaMaxDepth)
	}
	switch v := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(v), nil
	case lua.LNumber:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not a JSON number", f)
		}
		return jsonNumber(f), nil
	case lua.LString:
		return string(v), nil
	case *lua.LTable:
		return tableToGo(v, depth)
	}
	return nil, fmt.Errorf("a %s has no JSON form", v.Type())
}

// jsonNumber writes whole numbers without a fraction, as Lua prints them.
func jsonNumber(f float64) json.Number {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return json.Number(strconv.FormatInt(int64(f), 10))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

func tableToGo(t *lua.LTable, depth int) (any, error) {
	n := t.Len()
	count := 0
	t.ForEach(func(lua.LValue, lua.LValue) { count++ })
	if n > 0 && count == n {
		arr := make([]any, n)
		for i := 1; i <= n; i++ {
			v, err := luaToGo(t.RawGetInt(i), depth+1)
			if err != nil {
				return nil, err
			}
			arr[i-1] = v
		}
		return arr, nil
	}
	obj := make(map[string]any, count)
	var err error
	t.ForEach(func(k, v lua.LValue) {
		if err != nil {
			return
		}
		var key string
		switch k := k.(type) {
		case lua.LString:
			key = string(k)
		case lua.LNumber:
			key = string(jsonNumber(float64(k)))
		default:
			err = fmt.Errorf("a table key of type %s has no JSON form", k.Type())
			return
		}
		obj[key], err = luaToGo(v, depth+1)
	})
	return obj, err
}

// goToLua turns decoded JSON into Lua values: objects and arrays become
// tables, null nil.
func goToLua(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case nil:
		return lua.LNil
	case bool:
		return lua.LBool(v)
	case json.Number:
		f, _ := v.Float64()
		return lua.LNumber(f)
	case float64:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case int:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case []any:
		t := L.CreateTable(len(v), 0)
		for i, e := range v {
			t.RawSetInt(i+1, goToLua(L, e))
		}
		return t
	case map[string]any:
		t := L.CreateTable(0, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.RawSetString(k, goToLua(L, v[k]))
		}
		return t
	}
	return lua.LString(fmt.Sprint(v))
}

// encodeJSON encodes v without HTML escaping, indented when asked.
func encodeJSON(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// decodeJSON decodes one JSON text, bounded in depth.
func decodeJSON(text string) (any, error) {
	depth, maxDepth := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case ']', '}':
			depth--
		}
	}
	if maxDepth > luaMaxDepth {
		return nil, fmt.Errorf("the JSON nests more than %d levels deep", luaMaxDepth)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}
