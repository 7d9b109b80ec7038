package calibration

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/steadysweep/steadysweep/sinks/internal/canvas"
)

// Plot geometry: pixels per swept axis (column) and in height.
const (
	plotColPx    = 420
	plotMinPx    = 840
	plotHeightPx = 820
	plotHeaderPx = 70
)

// pt is a typographic point in pixels (the plot is drawn at 96 dpi).
const pt = canvas.Pt

var otherColor = color.RGBA{R: 100, G: 100, B: 100, A: 255}

// plotMetric is one panel row of the plot: two metrics of a config, in
// percent, drawn as filled and hollow marks.
type plotMetric struct {
	title        string
	names        [2]string
	values       [2]func(c *ConfigScore) float64
	glyphs       [2]canvas.Glyph
	medianSeries int // which of the two gets the pooled-median line
	// log draws the y axis on a log scale (values floored at logFloor):
	// log10 of the values on a linear axis with decade ticks (logTicks).
	log bool
}

// logFloor is the smallest value (percent) a log panel shows.
const logFloor = 1e-3

var plotMetrics = []plotMetric{
	{"TPOT error, plateau runs (%, log)", [2]string{"median |error|", "p95 |error|"},
		[2]func(c *ConfigScore) float64{func(c *ConfigScore) float64 { return c.PlateauErrMedian }, func(c *ConfigScore) float64 { return c.PlateauErrP95 }},
		[2]canvas.Glyph{canvas.Circle, canvas.Triangle}, 0, true},
	{"rate (%)", [2]string{"found rate", "confident-but-wrong"},
		[2]func(c *ConfigScore) float64{func(c *ConfigScore) float64 { return c.FoundRate }, func(c *ConfigScore) float64 { return c.ConfidentWrongRate }},
		[2]canvas.Glyph{canvas.Circle, canvas.Cross}, 0, false},
}

// WritePlot writes a PNG to path: one column per swept axis, its values
// along x (configs sharing a value spread slightly apart), and two panel
// rows — median and p95 TPOT error over the runs with a planted plateau
// (log scale), found rate and confident-but-wrong rate — in percent; marks are coloured by compat, and a grey line joins
// the per-value median of the first metric over every config (the other
// axes pooled).
func (r *Report) WritePlot(path string) error {
	axes := r.Axes
	if len(axes) == 0 {
		axes = []string{"compat"}
	}
	w := max(plotMinPx, plotColPx*len(axes))
	img := canvas.NewRaster(w, plotHeightPx, color.White)
	r.drawLegend(img, canvas.Rect{Max: canvas.Point{X: float64(w), Y: plotHeaderPx}})
	// Tiles of the body: rows of panels, one column per axis.
	const padTop, padBottom, padLeft, padRight, padX, padY = 4 * pt, 4 * pt, 6 * pt, 10 * pt, 12 * pt, 14 * pt
	tileW := (float64(w) - padLeft - padRight - padX*float64(len(axes)-1)) / float64(len(axes))
	tileH := (plotHeightPx - plotHeaderPx - padTop - padBottom - padY*float64(len(plotMetrics)-1)) / float64(len(plotMetrics))
	for i, m := range plotMetrics {
		for j, a := range axes {
			x0 := padLeft + float64(j)*(tileW+padX)
			y0 := plotHeaderPx + padTop + float64(i)*(tileH+padY)
			r.drawAxisPanel(img, canvas.Rect{Min: canvas.Point{X: x0, Y: y0}, Max: canvas.Point{X: x0 + tileW, Y: y0 + tileH}}, a, m, i == 0)
		}
	}
	if err := WriteFile(path, img.WritePNG); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// drawAxisPanel plots metric m of every config against axis a in tile.
// The legend is drawn once, above the panels (drawLegend).
func (r *Report) drawAxisPanel(c canvas.Canvas, tile canvas.Rect, a string, m plotMetric, top bool) {
	values := axisValues(r.Configs, a)
	pos := map[string]int{}
	for i, v := range values {
		pos[v] = i
	}
	var p canvas.Panel
	if top {
		p.Title = a
	} else {
		p.X.Label = a
	}
	p.Y.Label = m.title
	p.X.NoLine = true
	for i, v := range values {
		p.X.Ticks = append(p.X.Ticks, canvas.Tick{Value: float64(i), Label: shown(v)})
	}
	p.X.Min, p.X.Max = -0.5, float64(len(values))-0.5

	lo, hi := math.Inf(1), math.Inf(-1) // the plotted y range
	perValue := make([][]float64, len(values))
	byCompat := map[string][2][]canvas.Point{} // data coordinates
	for i := range r.Configs {
		cf := &r.Configs[i]
		x := float64(pos[cf.Params[a]]) + jitter(cf.ConfigID)
		xy := byCompat[cf.Params["compat"]]
		for k := range 2 {
			y := m.values[k](cf)
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			y *= 100
			if m.log {
				y = math.Log10(max(y, logFloor))
			}
			xy[k] = append(xy[k], canvas.Point{X: x, Y: y})
			lo, hi = min(lo, y), max(hi, y)
			if k == m.medianSeries {
				perValue[pos[cf.Params[a]]] = append(perValue[pos[cf.Params[a]]], y)
			}
		}
		byCompat[cf.Params["compat"]] = xy
	}
	if lo > hi { // no data: a unit range
		lo, hi = 0, 1
	}
	if m.log {
		p.Y.Min, p.Y.Max = lo-0.3, max(hi, lo+1)+0.3
		p.Y.Ticks = logTicks(p.Y.Min, p.Y.Max)
	} else {
		p.Y.Min, p.Y.Max = 0, max(hi, 1)*1.05
		p.Y.Ticks = canvas.DefaultTicks(p.Y.Min, p.Y.Max)
	}

	// The data area: the tile less the title, the axes and, on the
	// right, half the last category's label.
	tt := 0.0
	if top {
		tt = canvas.TitleHeight()
	}
	right := 0.0
	if len(values) > 0 {
		right = canvas.Width(shown(values[len(values)-1]), canvas.TickSize) / 2
	}
	p.Area = canvas.Rect{Min: canvas.Point{X: tile.Min.X + p.Y.YWidth(), Y: tile.Min.Y + tt},
		Max: canvas.Point{X: tile.Max.X - right, Y: tile.Max.Y - p.X.XHeight()}}

	p.Grid(c, gridColor)
	c.Clip(p.Area)
	var line []canvas.Point
	for i, ys := range perValue {
		if len(ys) > 0 {
			line = append(line, p.P(float64(i), Quantile(ys, 0.5)))
		}
	}
	if len(line) > 1 {
		c.Stroke(line, medianLine)
	}
	compats := make([]string, 0, len(byCompat))
	for k := range byCompat {
		compats = append(compats, k)
	}
	slices.Sort(compats)
	for _, compat := range compats {
		for k := range 2 {
			for _, q := range byCompat[compat][k] {
				canvas.Mark(c, m.glyphs[k], p.P(q.X, q.Y), glyphRadius, compatColor(compat))
			}
		}
	}
	c.Unclip()
	p.Axes(c)
}

// Styles of the marks, the median line and the grid.
var (
	medianLine = canvas.Line{Color: color.Gray{Y: 150}, Width: 1 * pt, Dashes: []float64{4 * pt, 3 * pt}}
	gridColor  = color.Gray{Y: 128}
)

const glyphRadius = 3 * pt

// compatColor is the colour of compat mode compat's marks (a switch, not
// a map every command would build at start-up).
func compatColor(compat string) color.Color {
	switch compat {
	case "steadysweep":
		return color.RGBA{R: 31, G: 119, B: 180, A: 255}
	case "reference":
		return color.RGBA{R: 255, G: 127, B: 14, A: 255}
	}
	return otherColor
}

// Legend geometry: the type size, the thumbnail's width, and the inset
// of the legend columns in the header band.
const (
	legendSize  = 10 * pt
	legendThumb = 20 * pt
	legendLeft  = 12 * pt
	legendTop   = 6 * pt
)

// drawLegend draws the legend in band, above the panels: one column per
// compat mode present and panel row, and the median line.
func (r *Report) drawLegend(c canvas.Canvas, band canvas.Rect) {
	compats := map[string]bool{}
	for i := range r.Configs {
		compats[r.Configs[i].Params["compat"]] = true
	}
	names := make([]string, 0, len(compats))
	for k := range compats {
		names = append(names, k)
	}
	slices.Sort(names)
	type entry struct {
		label string
		thumb func(box canvas.Rect)
	}
	var cols [][]entry
	for _, m := range plotMetrics {
		for _, compat := range names {
			var col []entry
			for k := range 2 {
				g, cc := m.glyphs[k], compatColor(compat)
				col = append(col, entry{compat + " " + m.names[k], func(box canvas.Rect) {
					canvas.Mark(c, g, canvas.Point{X: (box.Min.X + box.Max.X) / 2, Y: (box.Min.Y + box.Max.Y) / 2}, glyphRadius, cc)
				}})
			}
			cols = append(cols, col)
		}
	}
	cols = append(cols, []entry{{"median over configs", func(box canvas.Rect) {
		y := (box.Min.Y + box.Max.Y) / 2
		c.Stroke([]canvas.Point{{X: box.Min.X, Y: y}, {X: box.Max.X, Y: y}}, medianLine)
	}}})
	width := band.Dx() / float64(len(cols))
	asc, desc := canvas.Metrics(legendSize)
	ts := canvas.Text{Size: legendSize, Color: color.Black, Y: canvas.Middle}
	for i, col := range cols {
		x := band.Min.X + width*float64(i) + legendLeft
		for j, e := range col {
			y := band.Min.Y + legendTop + float64(j)*(asc+desc)
			e.thumb(canvas.Rect{Min: canvas.Point{X: x, Y: y}, Max: canvas.Point{X: x + legendThumb, Y: y + asc + desc}})
			c.Text(canvas.Point{X: x + legendThumb + legendSize/2, Y: y + (asc+desc)/2}, e.label, ts)
		}
	}
}

// logTicks mark a linear axis of log10 values over [lo, hi]: a labelled
// tick at each decade, unlabelled ones at 2…9 times it.
func logTicks(lo, hi float64) []canvas.Tick {
	var out []canvas.Tick
	for d := math.Floor(lo); d <= math.Ceil(hi); d++ {
		for m := 1; m <= 9; m++ {
			v := d + math.Log10(float64(m))
			if v < lo || v > hi {
				continue
			}
			t := canvas.Tick{Value: v}
			if m == 1 {
				t.Label = strconv.FormatFloat(math.Pow(10, d), 'g', -1, 64)
			}
			out = append(out, t)
		}
	}
	return out
}

// axisValues are the distinct values of axis a over cs, numerically
// sorted when all are numbers, else lexically.
func axisValues(cs []ConfigScore, a string) []string {
	set := map[string]bool{}
	for i := range cs {
		set[cs[i].Params[a]] = true
	}
	vals := make([]string, 0, len(set))
	for v := range set {
		vals = append(vals, v)
	}
	slices.SortFunc(vals, func(x, y string) int {
		fx, ex := strconv.ParseFloat(x, 64)
		fy, ey := strconv.ParseFloat(y, 64)
		if ex == nil && ey == nil && fx != fy {
			return cmp.Compare(fx, fy)
		}
		return cmp.Compare(x, y)
	})
	return vals
}

// jitter spreads configs sharing an axis value over ±0.25, stably.
func jitter(id string) float64 {
	h := fnv.New32a()
	h.Write([]byte(id))
	return (float64(h.Sum32()%1000)/999 - 0.5) * 0.5
}
