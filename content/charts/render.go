package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is Vega's tableau10, the colors Vega-Lite draws series in.
var palette = []color.RGBA{
	{0x4c, 0x78, 0xa8, 0xff}, {0xf5, 0x85, 0x18, 0xff}, {0xe4, 0x57, 0x56, 0xff}, {0x72, 0xb7, 0xb2, 0xff},
	{0x54, 0xa2, 0x4b, 0xff}, {0xee, 0xca, 0x3b, 0xff}, {0xb2, 0x79, 0xa2, 0xff}, {0xff, 0x9d, 0xa6, 0xff},
	{0x9d, 0x75, 0x5d, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

func colorOf(i int) color.RGBA { return palette[i%len(palette)] }

// px is a length of n pixels: the canvases draw at 96 dots an inch.
func px(n float64) vg.Length { return vg.Length(n) * vg.Inch / 96 }

// Render draws the spec over rows as PNG or SVG (format "png" or "svg").
func Render(s Spec, rows []map[string]any, format string) ([]byte, error) {
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("a chart is written as png or svg, not %q", format)
	}
	if len(rows) > MaxPoints {
		return nil, fmt.Errorf("the data has %d rows; a chart draws at most %d", len(rows), MaxPoints)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("the data has no rows to draw")
	}
	p := plot.New()
	p.Title.Text = s.Title
	p.BackgroundColor = color.White
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		f.Variant = "Sans"
	}
	p.Title.TextStyle.Font.Size = px(16)
	p.Title.Padding = px(8)
	for ch, axis := range map[string]*plot.Axis{"x": &p.X, "y": &p.Y} {
		if c, ok := s.Encoding[ch]; ok {
			axis.Label.Text = cmpOr(c.Title, c.Field)
		}
	}
	var err error
	switch s.Mark {
	case "bar":
		err = drawBars(p, s, rows)
	case "arc":
		err = drawArcs(p, s, rows)
	default:
		err = drawXY(p, s, rows)
	}
	if err != nil {
		return nil, err
	}
	if s.Mark != "arc" {
		// As Vega-Lite, a quantitative y starts at zero; room is left
		// above the highest value for the legend.
		p.Y.Min = min(p.Y.Min, 0)
		if _, colored := s.Encoding["color"]; colored {
			p.Y.Max += (p.Y.Max - p.Y.Min) * 0.12
		}
	}
	w, err := p.WriterTo(px(float64(s.Width)), px(float64(s.Height)), format)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// drawBars draws a bar for each category of x, side by side for each
// series; rows of one category and series add up.
func drawBars(p *plot.Plot, s Spec, rows []map[string]any) error {
	x, y := s.Encoding["x"], s.Encoding["y"]
	cats := ordered(rows, x)
	index := map[string]int{}
	for i, c := range cats {
		index[c] = i
	}
	names, groups, err := series(rows, s)
	if err != nil {
		return err
	}
	slot := px(float64(s.Width)) * 0.75 / vg.Length(len(cats))
	width := slot / vg.Length(len(names))
	for i, g := range groups {
		values := make(plotter.Values, len(cats))
		for _, r := range g {
			v, ok := number(r, y.Field)
			if !ok {
				return fmt.Errorf("encoding.y's field %q is not a number in a row (%v)", y.Field, r[y.Field])
			}
			values[index[label(r, x.Field)]] += v
		}
		bars, err := plotter.NewBarChart(values, width)
		if err != nil {
			return err
		}
		bars.Color, bars.LineStyle.Width = colorOf(i), 0
		bars.Offset = (vg.Length(i) - vg.Length(len(names)-1)/2) * width
		p.Add(bars)
		if names[i] != "" {
			p.Legend.Add(names[i], bars)
		}
	}
	p.NominalX(cats...)
	p.Legend.Top = true
	return nil
}

// drawXY draws lines, areas or points: x by its value (a number or a
// time) or by its category's place.
func drawXY(p *plot.Plot, s Spec, rows []map[string]any) error {
	x, y := s.Encoding["x"], s.Encoding["y"]
	xOf, err := xPlacer(p, x, rows)
	if err != nil {
		return err
	}
	size, sized := s.Encoding["size"]
	lo, hi := math.Inf(1), math.Inf(-1)
	if sized {
		for _, r := range rows {
			if v, ok := number(r, size.Field); ok {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	names, groups, err := series(rows, s)
	if err != nil {
		return err
	}
	for i, g := range groups {
		xys := make(plotter.XYs, 0, len(g))
		radii := make([]vg.Length, 0, len(g))
		for _, r := range g {
			xv, ok := xOf(r)
			if !ok {
				return fmt.Errorf("encoding.x's field %q cannot be read as %s in a row (%v)", x.Field, x.Type, r[x.Field])
			}
			yv, ok := number(r, y.Field)
			if !ok {
				return fmt.Errorf("encoding.y's field %q is not a number in a row (%v)", y.Field, r[y.Field])
			}
			xys = append(xys, plotter.XY{X: xv, Y: yv})
			radii = append(radii, radius(r, size, sized, lo, hi))
		}
		if s.Mark != "point" {
			slices.SortStableFunc(xys, func(a, b plotter.XY) int { return cmpFloat(a.X, b.X) })
		}
		thumb, err := addXY(p, s.Mark, xys, radii, colorOf(i))
		if err != nil {
			return err
		}
		if s.Mark == "point" {
			thumb = swatch{colorOf(i)}
		}
		if names[i] != "" {
			p.Legend.Add(names[i], thumb)
		}
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return nil
}

// radius is a point's size: 3 pixels, or 2 to 12 by the size field.
func radius(r map[string]any, size Channel, sized bool, lo, hi float64) vg.Length {
	v, ok := number(r, size.Field)
	if !sized || !ok || hi <= lo {
		return px(3)
	}
	return px(2 + 10*math.Sqrt((v-lo)/(hi-lo)))
}

func addXY(p *plot.Plot, mark string, xys plotter.XYs, radii []vg.Length, c color.RGBA) (plot.Thumbnailer, error) {
	if mark == "point" {
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			return draw.GlyphStyle{Color: c, Radius: radii[i], Shape: draw.CircleGlyph{}}
		}
		sc.GlyphStyle = sc.GlyphStyleFunc(0)
		p.Add(sc)
		return sc, nil
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = c, px(2)
	if mark == "area" {
		fill := c
		fill.A = 0xb0
		line.FillColor = fill
	}
	p.Add(line)
	return line, nil
}
