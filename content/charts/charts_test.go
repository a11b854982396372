package charts

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// salesRows are the rows of testdata/sales.csv.
func salesRows(t *testing.T) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := RowsFromCSV(f, ',')
	if err != nil || len(rows) != 8 {
		t.Fatalf("sales.csv: %d rows, %v", len(rows), err)
	}
	return rows
}

// goldenSpecs are a chart of every mark, over the rows of sales.csv.
var goldenSpecs = map[string]string{
	"bar": `{"title": "Sales by month", "data": {"url": "sales.csv"}, "mark": "bar", "encoding": {"x": {"field": "month", "type": "ordinal"},
		"y": {"field": "total", "type": "quantitative", "title": "Total (k€)"}, "color": {"field": "region", "type": "nominal"}}}`,
	"line": `{"title": "Sales over time", "data": {"url": "sales.csv"}, "mark": {"type": "line"}, "encoding": {"x": {"field": "month", "type": "temporal"},
		"y": {"field": "total", "type": "quantitative"}, "color": {"field": "region", "type": "nominal"}}}`,
	"point": `{"data": {"url": "sales.csv"}, "mark": "point", "width": 400, "height": 300, "encoding": {"x": {"field": "orders", "type": "quantitative"},
		"y": {"field": "total", "type": "quantitative"}, "size": {"field": "orders", "type": "quantitative"}, "color": {"field": "region", "type": "nominal"}}}`,
	"area": `{"title": {"text": "North"}, "data": {"url": "sales.csv"}, "mark": "area", "encoding": {"x": {"field": "month", "type": "ordinal"},
		"y": {"field": "total", "type": "quantitative"}}}`,
	"arc": `{"title": "Share by region", "data": {"url": "sales.csv"}, "mark": "arc", "width": 360, "height": 360, "encoding": {"theta": {"field": "total", "type": "quantitative"},
		"color": {"field": "region", "type": "nominal"}}}`,
}

// TestEveryMarkMatchesItsGoldenImage renders each mark from a spec over a
// CSV file's rows and compares the picture with the one kept in
// testdata/golden, pixel by pixel with a small tolerance (a font
// rasteriser's rounding may move a few pixels): a change that moves
// bars, lines or labels fails. The same spec always gives the same bytes.
func TestEveryMarkMatchesItsGoldenImage(t *testing.T) {
	rows := salesRows(t)
	for name, raw := range goldenSpecs {
		t.Run(name, func(t *testing.T) {
			s, err := Parse([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Render(s, rows, "png")
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Render(s, rows, "png")
			if !bytes.Equal(got, again) {
				t.Error("the same spec gave different bytes")
			}
			path := filepath.Join("testdata", "golden", name+".png")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./content/charts -update writes it)", err)
			}
			if diff := differentPixels(t, got, want); diff > 0.002 {
				t.Errorf("%.2f%% of the pixels differ from %s", diff*100, path)
			}
			svg, err := Render(s, rows, "svg")
			if err != nil || !bytes.HasPrefix(svg, []byte("<?xml")) || !bytes.Contains(svg, []byte("<svg")) {
				t.Errorf("svg: %v %.80s", err, svg)
			}
		})
	}
}

// differentPixels is the share of pixels of two PNGs that differ by more
// than a little in any channel; images of other sizes differ wholly.
func differentPixels(t *testing.T, a, b []byte) float64 {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return 1
	}
	r := ia.Bounds()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !near(ia, ib, x, y) {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

func near(a, b image.Image, x, y int) bool {
	r1, g1, b1, a1 := a.At(x, y).RGBA()
	r2, g2, b2, a2 := b.At(x, y).RGBA()
	d := func(p, q uint32) bool { return p-q < 0x1000 || q-p < 0x1000 }
	return d(r1, r2) && d(g1, g2) && d(b1, b2) && d(a1, a2)
}

// TestSizesAndPointsAreBoundedBeforeDrawing refuses a huge canvas and a
// million points with what is allowed, and an image of the size asked.
func TestSizesAndPointsAreBoundedBeforeDrawing(t *testing.T) {
	if _, err := Parse([]byte(`{"width": 100000, "data": {"values": []}, "mark": "bar", "encoding": {}}`)); err == nil || !strings.Contains(err.Error(), "16 to 4096") {
		t.Errorf("a 100,000 px width: %v", err)
	}
	var sb strings.Builder
	sb.WriteString(`{"data": {"values": [`)
	for i := range 1_000_000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"x":%d}`, i)
	}
	sb.WriteString(`]}, "mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "x", "type": "quantitative"}}}`)
	if _, err := Parse([]byte(sb.String())); err == nil || !strings.Contains(err.Error(), "at most 100000") {
		t.Errorf("a million points: %v", err)
	}
	csv := "x\n" + strings.Repeat("1\n", MaxPoints+1)
	if _, err := RowsFromCSV(strings.NewReader(csv), ','); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a CSV past the bound: %v", err)
	}
	s, _ := Parse([]byte(`{"width": 300, "height": 200, "data": {"values": [{"a": "x", "b": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}`))
	out, err := Render(s, s.Data.Values, "png")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := png.DecodeConfig(bytes.NewReader(out))
	if cfg.Width != 300 || cfg.Height != 200 {
		t.Errorf("a 300×200 chart is %d×%d", cfg.Width, cfg.Height)
	}
}

// TestUnsupportedPartsAreRefusedByName names what a spec asks that is
// not drawn, instead of drawing something else.
func TestUnsupportedPartsAreRefusedByName(t *testing.T) {
	base := `"data": {"values": [{"a": "x", "b": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}`
	for spec, says := range map[string]string{
		`{` + base + `, "transform": [{"filter": "datum.b > 0"}]}`:    "transform is not supported",
		`{` + base + `, "layer": []}`:                                 "layer is not supported",
		`{"data": {"values": []}, "mark": "boxplot", "encoding": {}}`: "mark boxplot is not supported: use bar, line, point, area, arc",
		`{"data": {"values": []}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal", "aggregate": "sum"}, "y": {"field": "b", "type": "quantitative"}}}`:       "encoding.x.aggregate is not supported",
		`{"data": {"values": []}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}, "opacity": {"value": 1}}}`:  "encoding.opacity is not supported",
		`{"data": {"values": []}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative", "scale": {"type": "log"}}}}`: "encoding.y.scale is not supported",
		`{"data": {"values": []}, "mark": {"type": "line", "interpolate": "monotone"}, "encoding": {}}`:                                                                        "mark.interpolate is not supported",
		`{"data": {"values": []}, "mark": "arc", "encoding": {"color": {"field": "a", "type": "nominal"}}}`:                                                                    "needs encoding.theta",
		`{"data": {"sequence": {"start": 0}}, "mark": "bar", "encoding": {}}`:                                                                                                  "data.sequence is not supported",
	} {
		if _, err := Parse([]byte(spec)); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want it to say %q", spec, err, says)
		}
	}
}

// TestTooManyColorsOrSlicesAreRefused refuses a color field of more
// values than a legend can name, for series and for slices.
func TestTooManyColorsOrSlicesAreRefused(t *testing.T) {
	var rows []map[string]any
	for i := range MaxSeries + 1 {
		rows = append(rows, map[string]any{"k": fmt.Sprint("s", i), "x": float64(i), "v": 1.0})
	}
	for _, mark := range []string{"line", "arc"} {
		enc := `"x": {"field": "x", "type": "quantitative"}, "y": {"field": "v", "type": "quantitative"}`
		if mark == "arc" {
			enc = `"theta": {"field": "v", "type": "quantitative"}`
		}
		s, err := Parse([]byte(`{"data": {"values": []}, "mark": "` + mark + `", "encoding": {` + enc + `, "color": {"field": "k", "type": "nominal"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Render(s, rows, "png"); err == nil || !strings.Contains(err.Error(), "at most 50") {
			t.Errorf("%s with %d colors: %v", mark, MaxSeries+1, err)
		}
	}
}
