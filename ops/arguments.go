package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// DecodeArgs decodes raw (a JSON object of In's fields) into a new input
// for Run. A mismatch is worded for the person or model that wrote the
// call, never in Go's types: the parameter (as rename spells it, nil for
// the JSON names: scripts see camelCase), what it must be and what was
// given; a parameter the operation does not take, with those it takes.
func (op Op) DecodeArgs(raw json.RawMessage, rename func(string) string) (any, error) {
	raw, err := op.CanonicalArgs(raw)
	if err != nil {
		return nil, err
	}
	in := op.newIn()
	if err := Decode(raw, in); err != nil {
		return nil, op.argumentError(err, rename)
	}
	return in, nil
}

func (op Op) argumentError(err error, rename func(string) string) error {
	if rename == nil {
		rename = func(s string) string { return s }
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		takes := make([]string, 0, 8)
		for _, p := range parameters(op.In) {
			takes = append(takes, rename(p))
		}
		return fmt.Errorf("no parameter %q: the parameters are %s", rename(field), strings.Join(takes, ", "))
	case errors.As(err, &te) && te.Field == "":
		return fmt.Errorf("the arguments of %s must be an object, not %s", op.Name, valueWords(te.Value))
	case errors.As(err, &te):
		field := te.Field[strings.LastIndex(te.Field, ".")+1:]
		return fmt.Errorf("%s must be %s, not %s", rename(field), kindWords(te.Type), valueWords(te.Value))
	case errors.As(err, &se):
		return fmt.Errorf("the arguments of %s are not valid JSON: %s at byte %d", op.Name, strings.TrimPrefix(se.Error(), "json: "), se.Offset)
	}
	return fmt.Errorf("the arguments of %s are not valid JSON: %s", op.Name, strings.TrimPrefix(err.Error(), "json: "))
}

// parameters are the JSON names of a struct's fields, embedded structs'
// included, in order.
func parameters(t reflect.Type) []string {
	var out []string
	eachField(t, func(name string, _ reflect.Type) { out = append(out, name) })
	return out
}

// eachField calls f with the JSON name and type of every field of a
// struct (or pointer to one), embedded structs' fields in their place.
func eachField(t reflect.Type, f func(name string, ft reflect.Type)) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-" || !sf.IsExported() && !sf.Anonymous:
		case sf.Anonymous && name == "":
			eachField(sf.Type, f)
		case name == "":
			f(sf.Name, sf.Type)
		default:
			f(name, sf.Type)
		}
	}
}

// kindWords names what a value of Go type t is in JSON.
func kindWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// valueWords names what encoding/json found ("string", "number 1.5").
func valueWords(v string) string {
	switch v {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "an array"
	case "object":
		return "an object"
	}
	return v
}
