package charts

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// number reads a row's field as a number: a JSON number, or text that
// is one ("1,234.5" and "12%" too, as spreadsheets write them).
func number(row map[string]any, field string) (float64, bool) {
	switch v := row[field].(type) {
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case string:
		s := strings.ReplaceAll(strings.TrimSpace(v), ",", "")
		scale := 1.0
		if strings.HasSuffix(s, "%") {
			s, scale = strings.TrimSuffix(s, "%"), 0.01
		}
		f, err := strconv.ParseFloat(s, 64)
		return f * scale, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// dateLayouts are the forms of a date or time a temporal field may take.
var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02", "2006-01", "2006"}

// moment reads a row's field as a time, in seconds since 1970 (UTC): a
// date or time in ISO 8601, or a number of milliseconds as Vega-Lite
// takes them.
func moment(row map[string]any, field string) (float64, bool) {
	switch v := row[field].(type) {
	case float64:
		return v / 1000, true
	case string:
		s := strings.TrimSpace(v)
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return float64(t.UnixNano()) / 1e9, true
			}
		}
	}
	return 0, false
}

// label is a row's field as text.
func label(row map[string]any, field string) string {
	switch v := row[field].(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}

// ordered is the distinct values of a field in the rows, in the order a
// reader expects: numbers by value, dates by time, text as people sort
// it (file2 before file10).
func ordered(rows []map[string]any, c Channel) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if l := label(r, c.Field); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	col := collate.New(language.Und, collate.Numeric, collate.IgnoreCase)
	slices.SortStableFunc(out, func(a, b string) int {
		if c.Type == "temporal" {
			ta, oka := moment(map[string]any{"v": a}, "v")
			tb, okb := moment(map[string]any{"v": b}, "v")
			if oka && okb {
				return cmpFloat(ta, tb)
			}
		}
		fa, oka := number(map[string]any{"v": a}, "v")
		fb, okb := number(map[string]any{"v": b}, "v")
		if oka && okb {
			return cmpFloat(fa, fb)
		}
		return col.CompareString(a, b)
	})
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// series splits the rows by the color field, the groups in the order
// ordered gives; without a color field all rows are one series.
func series(rows []map[string]any, s Spec) (names []string, groups [][]map[string]any, err error) {
	c, ok := s.Encoding["color"]
	if !ok || s.Mark == "arc" {
		return []string{""}, [][]map[string]any{rows}, nil
	}
	names = ordered(rows, c)
	if len(names) > MaxSeries {
		return nil, nil, fmt.Errorf("encoding.color's field %q has %d values; a chart shows at most %d", c.Field, len(names), MaxSeries)
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	groups = make([][]map[string]any, len(names))
	for _, r := range rows {
		i := index[label(r, c.Field)]
		groups[i] = append(groups[i], r)
	}
	return names, groups, nil
}
