package pdfs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/form"

	"convfiles/content"
)

// Field is one form field.
type Field struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`  // text, date, checkbox, radio, combobox, listbox
	Value     any      `json:"value"` // a string, a boolean (checkbox) or a list of strings (listbox)
	Options   []string `json:"options,omitempty"`
	Pages     []int    `json:"pages"`
	Locked    bool     `json:"locked"`
	Multiline bool     `json:"multiline,omitempty"`
}

// exportForm reads a document's form; a document without one has no
// fields.
func exportForm(data []byte) (*form.FormGroup, error) {
	var fg *form.FormGroup
	err := run("the PDF", func() (err error) {
		fg, err = api.ExportForm(bytes.NewReader(data), "", config())
		return err
	})
	if err != nil {
		if strings.Contains(err.Error(), "no form") || strings.Contains(err.Error(), "no fields") {
			return &form.FormGroup{Forms: []form.Form{{}}}, nil
		}
		return nil, err
	}
	if len(fg.Forms) == 0 {
		fg.Forms = []form.Form{{}}
	}
	return fg, nil
}

// FormFields lists a document's form fields with their types and current
// values, by name.
func FormFields(data []byte) ([]Field, error) {
	fg, err := exportForm(data)
	if err != nil {
		return nil, err
	}
	return fieldsOf(fg.Forms[0]), nil
}

// fieldsOf lists a form's fields.
func fieldsOf(f form.Form) []Field {
	out := []Field{}
	for _, x := range f.TextFields {
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "text", Value: x.Value, Pages: x.Pages, Locked: x.Locked, Multiline: x.Multiline})
	}
	for _, x := range f.DateFields {
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "date", Value: x.Value, Pages: x.Pages, Locked: x.Locked})
	}
	for _, x := range f.CheckBoxes {
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "checkbox", Value: x.Value, Pages: x.Pages, Locked: x.Locked})
	}
	for _, x := range f.RadioButtonGroups {
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "radio", Value: x.Value, Options: x.Options, Pages: x.Pages, Locked: x.Locked})
	}
	for _, x := range f.ComboBoxes {
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "combobox", Value: x.Value, Options: x.Options, Pages: x.Pages, Locked: x.Locked})
	}
	for _, x := range f.ListBoxes {
		v := x.Values
		if v == nil {
			v = []string{}
		}
		out = append(out, Field{Name: nameOf(x.Name, x.ID), Type: "listbox", Value: v, Options: x.Options, Pages: x.Pages, Locked: x.Locked})
	}
	return out
}

func nameOf(name, id string) string {
	if name != "" {
		return name
	}
	return id
}

// FillForm sets form fields by name and writes the filled document. Text,
// date, radio and combobox fields take strings (numbers are written as
// text), checkboxes booleans, listboxes a string or a list of strings. It
// returns the names filled, sorted.
func FillForm(data []byte, values map[string]any, w io.Writer) ([]string, error) {
	if len(values) == 0 {
		return nil, content.Refuse(content.ErrBadRequest, "give the fields to fill as {fieldName: value}")
	}
	fg, err := exportForm(data)
	if err != nil {
		return nil, err
	}
	f := &fg.Forms[0]
	fields := fieldsOf(*f) // as read, for an error naming the fields
	filled := map[string]bool{}
	set := func(name, id string, locked bool, apply func(v any) error) error {
		key := name
		v, ok := values[key]
		if !ok {
			key = id
			if v, ok = values[key]; !ok {
				return nil
			}
		}
		if locked {
			return content.Refuse(content.ErrBadRequest, "the field %q is locked and cannot be filled", key)
		}
		if err := apply(v); err != nil {
			return content.Refuse(content.ErrBadRequest, "field %q: %v", key, err)
		}
		filled[key] = true
		return nil
	}
	for _, x := range f.TextFields {
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Value, err = text(v); return }); err != nil {
			return nil, err
		}
	}
	for _, x := range f.DateFields {
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Value, err = text(v); return }); err != nil {
			return nil, err
		}
	}
	for _, x := range f.CheckBoxes {
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Value, err = checked(v); return }); err != nil {
			return nil, err
		}
	}
	for _, x := range f.RadioButtonGroups {
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Value, err = choice(v, x.Options); return }); err != nil {
			return nil, err
		}
	}
	for _, x := range f.ComboBoxes {
		opts := x.Options
		if x.Editable {
			opts = nil
		}
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Value, err = choice(v, opts); return }); err != nil {
			return nil, err
		}
	}
	for _, x := range f.ListBoxes {
		if err := set(x.Name, x.ID, x.Locked, func(v any) (err error) { x.Values, err = choices(v, x.Options); return }); err != nil {
			return nil, err
		}
	}
	var unknown []string
	for k := range values {
		if !filled[k] {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		names := make([]string, len(fields))
		for i, fl := range fields {
			names[i] = fmt.Sprintf("%q", fl.Name)
		}
		if len(names) == 0 {
			return nil, content.Refuse(content.ErrMissing, "the PDF has no form fields")
		}
		return nil, content.Refuse(content.ErrMissing, "no field named %s: the fields are %s", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	js, err := json.Marshal(fg)
	if err != nil {
		return nil, err
	}
	err = run("the PDF", func() error { return api.FillForm(bytes.NewReader(data), bytes.NewReader(js), w, config()) })
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(filled))
	for k := range filled {
		names = append(names, k)
	}
	sort.Strings(names)
	return names, nil
}

func text(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case float64, int64, int, bool:
		return fmt.Sprint(v), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("expects text, not %T", v)
}

func checked(v any) (bool, error) {
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		switch strings.ToLower(v) {
		case "true", "yes", "on", "1", "x":
			return true, nil
		case "false", "no", "off", "0", "":
			return false, nil
		}
	}
	return false, fmt.Errorf("a checkbox takes true or false, not %v", v)
}

func choice(v any, options []string) (string, error) {
	s, err := text(v)
	if err != nil || len(options) == 0 || s == "" {
		return s, err
	}
	for _, o := range options {
		if o == s {
			return s, nil
		}
	}
	return "", fmt.Errorf("%q is not one of the options %q", s, options)
}

func choices(v any, options []string) ([]string, error) {
	var in []any
	switch v := v.(type) {
	case []any:
		in = v
	default:
		in = []any{v}
	}
	out := []string{}
	for _, x := range in {
		s, err := choice(x, options)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
