package formats_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/formats"
)

// TestChartsFromEveryKindOfDataFile draws a chart over a CSV, a TSV, an
// XLSX's sheet and a JSON file of the conversation: each is a picture of
// the size asked, recorded as derived from its data; a data file that is
// not there, a name outside the conversation and an unsupported part of
// a spec are refused with what was wrong.
func TestChartsFromEveryKindOfDataFile(t *testing.T) {
	e := env(t, "budget.xlsx")
	for name, text := range map[string]string{
		"sales.csv":  "month,total\n2026-01,120\n2026-02,135\n",
		"sales.tsv":  "month\ttotal\n2026-01\t120\n2026-02\t135\n",
		"sales.json": `[{"month": "2026-01", "total": 120}, {"month": "2026-02", "total": 135}]`,
	} {
		if _, err := e.Space.WriteBytes(ctx, name, []byte(text), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	spec := func(url, x, y string, extra string) json.RawMessage {
		return json.RawMessage(`{"mark": "bar", "width": 320, "height": 240, "data": {"url": "` + url + `"` + extra + `},
			"encoding": {"x": {"field": "` + x + `", "type": "nominal"}, "y": {"field": "` + y + `", "type": "quantitative"}}}`)
	}
	for _, c := range []struct {
		url, x, y, extra string
		rows             int
	}{
		{"sales.csv", "month", "total", "", 2},
		{"sales.tsv", "month", "total", "", 2},
		{"sales.json", "month", "total", "", 2},
		{"budget.xlsx", "Item", "Total", `, "format": {"sheet": "Budget"}`, 4},
	} {
		made, err := formats.RenderChart(ctx, e, formats.ChartArgs{Spec: spec(c.url, c.x, c.y, c.extra), Name: "charts/" + c.url + ".png"})
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		data, _, err := e.Space.ReadFile(ctx, made.File.Name, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != 320 || cfg.Height != 240 || made.Rows != c.rows {
			t.Errorf("%s: %dx%d, %d rows, %v", c.url, cfg.Width, cfg.Height, made.Rows, err)
		}
		if rec := record(t, e, made.File.Name); rec.DerivedFrom != record(t, e, c.url).ID || rec.MIME != "image/png" {
			t.Errorf("%s: recorded %+v", c.url, rec)
		}
	}
	for _, c := range []struct {
		spec       json.RawMessage
		name, says string
		kind       files.Kind
	}{
		{spec("missing.csv", "a", "b", ""), "x.png", "missing.csv", files.KindNotFound},
		{spec("../up.csv", "a", "b", ""), "x.png", "..", files.KindInvalid},
		{spec("sales.csv", "month", "total", ""), "../x.png", "..", files.KindInvalid},
		{spec("sales.csv", "month", "total", ""), "x.gif", ".png or .svg", files.KindInvalid},
		{spec("sales.csv", "month", "total", `, "format": {"type": "csv", "parse": {}}`), "x.png", "data.format.parse is not supported", files.KindInvalid},
		{spec("sales.csv", "month", "nothing", ""), "x.png", `field "nothing" is not a number`, files.KindInvalid},
	} {
		_, err := formats.RenderChart(ctx, e, formats.ChartArgs{Spec: c.spec, Name: c.name})
		if files.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s → %s: %v (%v), want %v saying %q", c.spec, c.name, err, files.KindOf(err), c.kind, c.says)
		}
	}
}
