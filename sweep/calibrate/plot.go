package calibrate

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plot geometry: pixels per swept axis (column) and in height, at plotDPI.
const (
	plotColPx    = 420
	plotMinPx    = 840
	plotHeightPx = 760
	plotDPI      = 96
)

// compatColors colours configs by compat mode.
var compatColors = map[string]color.Color{
	"steadysweep": color.RGBA{R: 31, G: 119, B: 180, A: 255},
	"reference":   color.RGBA{R: 255, G: 127, B: 14, A: 255},
}

var otherColor = color.RGBA{R: 100, G: 100, B: 100, A: 255}

// plotMetric is one panel row of the plot: two metrics of a config, in
// percent, drawn as filled and hollow marks.
type plotMetric struct {
	title        string
	names        [2]string
	values       [2]func(c *ConfigScore) float64
	glyphs       [2]draw.GlyphDrawer
	medianSeries int // which of the two gets the pooled-median line
	// log draws the y axis on a log scale (values floored at logFloor).
	log bool
}

// logFloor is the smallest value (percent) a log panel shows.
const logFloor = 1e-3

var plotMetrics = []plotMetric{
	{"TPOT error, plateau runs (%, log)", [2]string{"median |error|", "p95 |error|"},
		[2]func(c *ConfigScore) float64{func(c *ConfigScore) float64 { return c.PlateauErrMedian }, func(c *ConfigScore) float64 { return c.PlateauErrP95 }},
		[2]draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}}, 0, true},
	{"rate (%)", [2]string{"found rate", "confident-but-wrong"},
		[2]func(c *ConfigScore) float64{func(c *ConfigScore) float64 { return c.FoundRate }, func(c *ConfigScore) float64 { return c.ConfidentWrongRate }},
		[2]draw.GlyphDrawer{draw.CircleGlyph{}, draw.CrossGlyph{}}, 0, false},
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
	rows := make([][]*plot.Plot, len(plotMetrics))
	for i, m := range plotMetrics {
		for j, a := range axes {
			p, err := r.axisPanel(a, m, i == 0, j == 0)
			if err != nil {
				return fmt.Errorf("plot %s vs %s: %w", m.title, a, err)
			}
			rows[i] = append(rows[i], p)
		}
	}
	w := max(plotMinPx, plotColPx*len(axes))
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/plotDPI, plotHeightPx*vg.Inch/plotDPI), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(rows), Cols: len(axes), PadTop: 4, PadBottom: 4, PadLeft: 6, PadRight: 10, PadX: 12, PadY: 14}
	canvases := plot.Align(rows, tiles, dc)
	for i := range rows {
		for j := range rows[i] {
			rows[i][j].Draw(canvases[i][j])
		}
	}
	err := writeFileAtomic(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// axisPanel plots metric m of every config against axis a.
// Only the first column's panels (legend) carry a legend; every panel
// leaves headroom above its data for it.
func (r *Report) axisPanel(a string, m plotMetric, top, legend bool) (*plot.Plot, error) {
	values := axisValues(r.Configs, a)
	pos := map[string]int{}
	for i, v := range values {
		pos[v] = i
	}
	p := plot.New()
	p.Title.Text = a
	if !top {
		p.Title.Text = ""
		p.X.Label.Text = a
	}
	p.Y.Label.Text = m.title
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = shown(v)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(values))-0.5

	perValue := make([][]float64, len(values))
	byCompat := map[string][2]plotter.XYs{}
	for i := range r.Configs {
		c := &r.Configs[i]
		x := float64(pos[c.Params[a]]) + jitter(c.ConfigID)
		xy := byCompat[c.Params["compat"]]
		for k := range 2 {
			y := m.values[k](c)
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			y *= 100
			if m.log {
				y = max(y, logFloor)
			}
			xy[k] = append(xy[k], plotter.XY{X: x, Y: y})
			if k == m.medianSeries {
				perValue[pos[c.Params[a]]] = append(perValue[pos[c.Params[a]]], y)
			}
		}
		byCompat[c.Params["compat"]] = xy
	}
	var line plotter.XYs
	for i, ys := range perValue {
		if len(ys) > 0 {
			line = append(line, plotter.XY{X: float64(i), Y: Quantile(ys, 0.5)})
		}
	}
	if len(line) > 1 {
		l, err := plotter.NewLine(line)
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: 150}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		if legend {
			p.Legend.Add("median over configs", l)
		}
	}
	compats := make([]string, 0, len(byCompat))
	for k := range byCompat {
		compats = append(compats, k)
	}
	slices.Sort(compats)
	for _, compat := range compats {
		xy := byCompat[compat]
		col, ok := compatColors[compat]
		if !ok {
			col = otherColor
		}
		for k := range 2 {
			if len(xy[k]) == 0 {
				continue
			}
			s, err := plotter.NewScatter(xy[k])
			if err != nil {
				return nil, err
			}
			s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = col, m.glyphs[k], vg.Points(3)
			p.Add(s)
			if legend {
				p.Legend.Add(compat+" "+m.names[k], s)
			}
		}
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	if math.IsInf(p.Y.Min, 0) || math.IsInf(p.Y.Max, 0) { // no data: an empty unit range
		p.Y.Min, p.Y.Max = logFloor, 1
	}
	if m.log {
		lo, hi := max(p.Y.Min, logFloor), max(p.Y.Max, logFloor*10)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = lo/2, hi*math.Pow(hi/lo*2, headroom-1)
		return p, nil
	}
	p.Y.Max = max(p.Y.Max, 1) * headroom
	p.Y.Tick.Marker = belowTicker{max: p.Y.Max / headroom}
	return p, nil
}

// headroom is the y range over the data's: the top part holds the legend.
const headroom = 1.6

// belowTicker is the default ticker without ticks above max (the legend's
// headroom).
type belowTicker struct{ max float64 }

// Ticks returns the default ticks of [lo, hi] up to t.max.
func (t belowTicker) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(lo, t.max) {
		if tk.Value <= t.max*(1+1e-9) {
			out = append(out, tk)
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
