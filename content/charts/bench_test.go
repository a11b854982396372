package charts

import (
	"fmt"
	"testing"
)

// BenchmarkRenderTypical draws the typical chart of a report: 12 months
// of 3 regions as grouped bars and as lines, 640×400, as PNG and SVG.
func BenchmarkRenderTypical(b *testing.B) {
	var rows []map[string]any
	for m := 1; m <= 12; m++ {
		for i, region := range []string{"north", "south", "east"} {
			rows = append(rows, map[string]any{"month": fmt.Sprintf("2026-%02d", m), "region": region, "total": float64(100 + m*7 + i*13)})
		}
	}
	for _, mark := range []string{"bar", "line"} {
		s, err := Parse([]byte(`{"title": "Sales", "data": {"values": []}, "mark": "` + mark + `", "encoding": {"x": {"field": "month", "type": "ordinal"},
			"y": {"field": "total", "type": "quantitative"}, "color": {"field": "region", "type": "nominal"}}}`))
		if err != nil {
			b.Fatal(err)
		}
		for _, format := range []string{"png", "svg"} {
			b.Run(mark+"-"+format, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Render(s, rows, format); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
