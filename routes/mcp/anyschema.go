package mcp

import (
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// anyValue is the schema of a JSON value of any scalar type: what a cell
// holds. jsonschema-go writes Go's any as the schema true, which some
// clients (the TypeScript SDK) reject inside a tool's schemas.
var anyValue = jsonschema.Schema{Types: []string{"null", "boolean", "number", "string"}}

// explicitAny replaces every "true" schema inside s by anyValue. Every
// tool's input and output schemas pass through it.
func explicitAny(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	fix := func(p **jsonschema.Schema) {
		if *p != nil && reflect.DeepEqual(**p, jsonschema.Schema{}) {
			v := anyValue
			*p = &v
			return
		}
		explicitAny(*p)
	}
	for k := range s.Properties {
		p := s.Properties[k]
		fix(&p)
		s.Properties[k] = p
	}
	fix(&s.Items)
	fix(&s.AdditionalProperties)
}

// outputSchema readies a tool's output schema: explicit "any" values,
// and no "additionalProperties": false, which an answer never needs to
// be checked for (convfiles writes it) and which cost every object of
// every schema 28 bytes of the tool list.
func outputSchema(s *jsonschema.Schema) {
	explicitAny(s)
	dropClosed(s)
}

func dropClosed(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if a := s.AdditionalProperties; a != nil && a.Not != nil && reflect.DeepEqual(*a.Not, jsonschema.Schema{}) {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		dropClosed(p)
	}
	dropClosed(s.Items)
	dropClosed(s.AdditionalProperties)
}

// plainTypes makes every nullable type of an input schema plain: Go's
// pointers and slices derive as ["null", "array"], which clients such as
// the MCP Inspector do not know how to fill (they send a string). A
// parameter that may be left out is optional, never null; a null sent
// anyway is taken as left out.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		other := s.Types[0]
		if other == "null" {
			other = s.Types[1]
		}
		s.Type, s.Types = other, nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
	if s.AdditionalProperties != nil {
		plainTypes(s.AdditionalProperties)
	}
}
