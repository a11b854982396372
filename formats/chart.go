package formats

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"convfiles/content/charts"
	"convfiles/content/spreadsheet"
	"convfiles/files"
)

// ChartArgs are a chart's spec (the part of Vega-Lite package charts
// draws) and the file it is written to: a .png or an .svg.
type ChartArgs struct {
	Spec json.RawMessage `json:"spec"`
	Name string          `json:"name"`
}

// ChartMade is the chart written, its size in pixels and the rows drawn.
type ChartMade struct {
	File   Written `json:"file"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Rows   int     `json:"rows"`
}

// RenderChart is chart_render, files.chart.render: a chart drawn from a
// spec over its inline values or over a CSV, TSV, XLSX or JSON file of
// the conversation (data.url), written as PNG or SVG by the name's
// extension. A name that is taken is replaced, its content kept as a
// version. What the spec asks that is not drawn is refused by name.
func RenderChart(ctx context.Context, e Env, a ChartArgs) (ChartMade, error) {
	const op = "chart.render"
	format := strings.TrimPrefix(strings.ToLower(path.Ext(a.Name)), ".")
	if format != "png" && format != "svg" {
		return ChartMade{}, files.E(op, files.KindInvalid, a.Name, `name the chart's file with .png or .svg, like "sales.png"`, nil)
	}
	spec, err := charts.Parse(a.Spec)
	if err != nil {
		return ChartMade{}, files.E(op, files.KindInvalid, a.Name, err.Error(), nil)
	}
	rows, from := spec.Data.Values, source{}
	if spec.Data.URL != "" {
		if rows, from, err = e.chartRows(ctx, spec.Data); err != nil {
			return ChartMade{}, err
		}
	}
	data, err := charts.Render(spec, rows, format)
	if err != nil {
		return ChartMade{}, files.E(op, files.KindInvalid, a.Name, err.Error(), nil)
	}
	w, err := e.save(ctx, a.Name, "", data, from)
	return ChartMade{File: w, Width: spec.Width, Height: spec.Height, Rows: len(rows)}, err
}

// chartRows reads the rows of a chart's data file: a spreadsheet (CSV,
// TSV or XLSX, its first row naming the fields; data.format.sheet picks
// an XLSX's sheet) or a JSON array of objects.
func (e Env) chartRows(ctx context.Context, d charts.Data) ([]map[string]any, source, error) {
	const op = "chart.render"
	if strings.EqualFold(path.Ext(d.URL), ".json") {
		src, err := e.load(ctx, d.URL)
		if err != nil {
			return nil, src, err
		}
		rows, err := charts.RowsFromJSON(src.data)
		if err != nil {
			return nil, src, files.E(op, files.KindInvalid, src.name, err.Error(), nil)
		}
		return rows, src, nil
	}
	var cells [][]string
	_, err := readBook(ctx, e, op, d.URL, func(b *spreadsheet.Book) (struct{}, error) {
		return struct{}{}, b.Records(ctx, d.Sheet, charts.MaxPoints+1, func(row []string) error {
			cells = append(cells, append([]string(nil), row...))
			return nil
		})
	})
	if err != nil {
		return nil, source{}, err
	}
	rows, err := charts.RowsFromCells(cells)
	if err != nil {
		return nil, source{}, files.E(op, files.KindInvalid, d.URL, err.Error(), nil)
	}
	return rows, source{name: d.URL}, nil
}
