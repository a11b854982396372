package charts

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// xPlacer is how a row's x is placed on the axis: its number, its time
// (with dates on the ticks), or its category's place among the ordered
// categories (named on the ticks).
func xPlacer(p *plot.Plot, x Channel, rows []map[string]any) (func(map[string]any) (float64, bool), error) {
	switch x.Type {
	case "quantitative":
		return func(r map[string]any) (float64, bool) { return number(r, x.Field) }, nil
	case "temporal":
		p.X.Tick.Marker = plot.TimeTicks{Format: "2006-01-02"}
		return func(r map[string]any) (float64, bool) { return moment(r, x.Field) }, nil
	}
	cats := ordered(rows, x)
	index := map[string]int{}
	for i, c := range cats {
		index[c] = i
	}
	p.NominalX(cats...)
	return func(r map[string]any) (float64, bool) {
		i, ok := index[label(r, x.Field)]
		return float64(i), ok
	}, nil
}

// pie is an arc mark: a slice for each category of the color field (or
// each row), by its share of theta's total, clockwise from the top.
type pie struct {
	shares []float64
	colors []color.Color
}

// drawArcs draws the pie, its slices named in the legend.
func drawArcs(p *plot.Plot, s Spec, rows []map[string]any) error {
	theta := s.Encoding["theta"]
	c, named := s.Encoding["color"]
	var names []string
	sums := map[string]float64{}
	for i, r := range rows {
		v, ok := number(r, theta.Field)
		if !ok || v < 0 {
			return fmt.Errorf("encoding.theta's field %q is not a number of at least 0 in a row (%v)", theta.Field, r[theta.Field])
		}
		name := fmt.Sprint(i + 1)
		if named {
			name = label(r, c.Field)
		}
		if _, seen := sums[name]; !seen {
			names = append(names, name)
		}
		sums[name] += v
	}
	if named {
		names = ordered(rows, c)
	}
	if len(names) > MaxSeries {
		return fmt.Errorf("an arc chart shows at most %d slices, not %d", MaxSeries, len(names))
	}
	var total float64
	for _, n := range names {
		total += sums[n]
	}
	if total == 0 {
		return fmt.Errorf("encoding.theta's field %q adds up to 0: there is nothing to divide", theta.Field)
	}
	pc := &pie{}
	for i, n := range names {
		pc.shares = append(pc.shares, sums[n]/total)
		pc.colors = append(pc.colors, colorOf(i))
		p.Legend.Add(n, swatch{colorOf(i)})
	}
	p.Add(pc)
	p.HideAxes()
	p.Legend.Top = true
	return nil
}

// Plot draws the slices in the middle of the canvas.
func (pc *pie) Plot(c draw.Canvas, _ *plot.Plot) {
	center := c.Center()
	r := min(c.Max.X-c.Min.X, c.Max.Y-c.Min.Y) / 2 * 0.9
	start := math.Pi / 2
	for i, share := range pc.shares {
		if share == 0 {
			continue
		}
		sweep := -share * 2 * math.Pi
		var path vg.Path
		path.Move(center)
		path.Arc(center, r, start, sweep)
		path.Close()
		c.SetColor(pc.colors[i])
		c.Fill(path)
		start += sweep
	}
}

// swatch is a legend entry's square of color.
type swatch struct{ c color.Color }

// Thumbnail fills the legend's square.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.c, c.ClipPolygonXY(pts))
}
