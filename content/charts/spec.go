// Package charts renders charts from a small, documented part of
// Vega-Lite, the grammar models already write: a mark (bar, line, point,
// area, arc), an encoding of x, y, color, size and theta by field and
// type, a title and axis titles, over inline values or rows read from a
// file. Anything else in a spec is refused by name, never dropped. It
// draws with gonum/plot and its embedded Liberation fonts, so the same
// spec gives the same bytes, and it refuses what would be too large
// before drawing anything.
package charts

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Bounds of a chart, checked before any drawing.
const (
	MaxSide   = 4096   // pixels a side
	MaxPoints = 100000 // rows of data
	MaxSeries = 50     // colors: distinct values of the color field
)

// Spec is a parsed chart.
type Spec struct {
	Title         string
	Width, Height int
	Data          Data
	Mark          string
	Encoding      map[string]Channel // x, y, color, size, theta
}

// Data is where the rows come from: inline values, or a file of the
// conversation (URL) that the caller reads into Values.
type Data struct {
	Values []map[string]any
	URL    string
	Sheet  string // an XLSX's sheet, from data.format.sheet
}

// Channel encodes one field of the rows.
type Channel struct {
	Field string
	Type  string // quantitative, nominal, ordinal, temporal
	Title string
}

var (
	topKeys     = []string{"$schema", "title", "description", "width", "height", "data", "mark", "encoding"}
	dataKeys    = []string{"values", "url", "format", "name"}
	formatKeys  = []string{"type", "sheet"}
	markKeys    = []string{"type", "tooltip"}
	channelKeys = []string{"field", "type", "title", "axis", "legend"}
	axisKeys    = []string{"title"}
	marks       = []string{"bar", "line", "point", "area", "arc"}
	channels    = []string{"x", "y", "color", "size", "theta"}
	types       = []string{"quantitative", "nominal", "ordinal", "temporal"}
)

// Parse reads a spec, refusing every part it does not draw by its path
// in the spec and saying what is supported.
func Parse(raw []byte) (Spec, error) {
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		return Spec{}, fmt.Errorf("the spec is not a JSON object: %v", err)
	}
	s := Spec{Width: 640, Height: 400, Encoding: map[string]Channel{}}
	if err := only("", top, topKeys); err != nil {
		return Spec{}, err
	}
	var err error
	if s.Title, err = title(top["title"], "title"); err != nil {
		return Spec{}, err
	}
	for key, dst := range map[string]*int{"width": &s.Width, "height": &s.Height} {
		if v, ok := top[key]; ok {
			n, isNum := v.(float64)
			if !isNum || n != float64(int(n)) || n < 16 || n > MaxSide {
				return Spec{}, fmt.Errorf("%s must be a whole number of pixels from 16 to %d, not %v", key, MaxSide, v)
			}
			*dst = int(n)
		}
	}
	if s.Data, err = parseData(top["data"]); err != nil {
		return Spec{}, err
	}
	if s.Mark, err = parseMark(top["mark"]); err != nil {
		return Spec{}, err
	}
	enc, ok := top["encoding"].(map[string]any)
	if !ok {
		return Spec{}, fmt.Errorf("encoding must be an object of channels (%s)", strings.Join(channels, ", "))
	}
	if err := only("encoding.", enc, channels); err != nil {
		return Spec{}, err
	}
	for name, v := range enc {
		if s.Encoding[name], err = parseChannel("encoding."+name, v); err != nil {
			return Spec{}, err
		}
	}
	return s, s.check()
}

// only refuses the keys of m that are not in allowed, naming the first
// (in order) with its path.
func only(path string, m map[string]any, allowed []string) error {
	var extra []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return fmt.Errorf("%s%s is not supported: a chart spec here may have %s (a part of Vega-Lite)", path, extra[0], strings.Join(allowed, ", "))
}

func title(v any, path string) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	case map[string]any:
		if err := only(path+".", t, []string{"text"}); err != nil {
			return "", err
		}
		s, _ := t["text"].(string)
		return s, nil
	}
	return "", fmt.Errorf("%s must be text", path)
}

func parseData(v any) (Data, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Data{}, fmt.Errorf(`data must be {"values": [rows]} or {"url": "a CSV, TSV, JSON or XLSX file of the conversation"}`)
	}
	if err := only("data.", m, dataKeys); err != nil {
		return Data{}, err
	}
	var d Data
	if f, ok := m["format"].(map[string]any); ok {
		if err := only("data.format.", f, formatKeys); err != nil {
			return Data{}, err
		}
		d.Sheet, _ = f["sheet"].(string)
	}
	if u, ok := m["url"].(string); ok {
		d.URL = u
		return d, nil
	}
	rows, ok := m["values"].([]any)
	if !ok {
		return Data{}, fmt.Errorf("data needs values (an array of rows) or url (a file)")
	}
	if len(rows) > MaxPoints {
		return Data{}, fmt.Errorf("data.values has %d rows; a chart draws at most %d", len(rows), MaxPoints)
	}
	for i, r := range rows {
		row, ok := r.(map[string]any)
		if !ok {
			return Data{}, fmt.Errorf("data.values[%d] must be an object of field values", i)
		}
		d.Values = append(d.Values, row)
	}
	return d, nil
}

func parseMark(v any) (string, error) {
	if m, ok := v.(map[string]any); ok {
		if err := only("mark.", m, markKeys); err != nil {
			return "", err
		}
		v = m["type"]
	}
	name, _ := v.(string)
	if !slices.Contains(marks, name) {
		return "", fmt.Errorf("mark %v is not supported: use %s", v, strings.Join(marks, ", "))
	}
	return name, nil
}

func parseChannel(path string, v any) (Channel, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Channel{}, fmt.Errorf(`%s must be {"field": name, "type": one of %s}`, path, strings.Join(types, ", "))
	}
	if err := only(path+".", m, channelKeys); err != nil {
		return Channel{}, err
	}
	var c Channel
	c.Field, _ = m["field"].(string)
	c.Type, _ = m["type"].(string)
	if c.Field == "" {
		return Channel{}, fmt.Errorf("%s.field must name a field of the rows", path)
	}
	if !slices.Contains(types, c.Type) {
		return Channel{}, fmt.Errorf("%s.type must be one of %s", path, strings.Join(types, ", "))
	}
	var err error
	if c.Title, err = title(m["title"], path+".title"); err != nil {
		return Channel{}, err
	}
	if axis, ok := m["axis"].(map[string]any); ok {
		if err := only(path+".axis.", axis, axisKeys); err != nil {
			return Channel{}, err
		}
		if t, _ := axis["title"].(string); t != "" {
			c.Title = t
		}
	}
	if legend, ok := m["legend"].(map[string]any); ok {
		if err := only(path+".legend.", legend, axisKeys); err != nil {
			return Channel{}, err
		}
	}
	return c, nil
}

// check says what a mark needs of the encoding.
func (s Spec) check() error {
	has := func(ch string) bool { _, ok := s.Encoding[ch]; return ok }
	if s.Mark == "arc" {
		if !has("theta") {
			return fmt.Errorf(`an arc (pie) chart needs encoding.theta, the quantitative field of each slice, and encoding.color, what the slices are`)
		}
		if s.Encoding["theta"].Type != "quantitative" {
			return fmt.Errorf("encoding.theta must be quantitative")
		}
		return nil
	}
	if !has("x") || !has("y") {
		return fmt.Errorf("a %s chart needs encoding.x and encoding.y", s.Mark)
	}
	if s.Encoding["y"].Type != "quantitative" {
		return fmt.Errorf("encoding.y must be quantitative (a number for each row)")
	}
	if s.Mark == "bar" && s.Encoding["x"].Type == "quantitative" {
		return fmt.Errorf("a bar chart's encoding.x is the categories: nominal, ordinal or temporal")
	}
	if has("theta") {
		return fmt.Errorf("encoding.theta is for an arc mark only")
	}
	return nil
}
