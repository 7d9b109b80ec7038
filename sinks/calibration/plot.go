package calibration

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
	plotHeightPx = 820
	plotHeaderPx = 70
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
	// log draws the y axis on a log scale (values floored at logFloor):
	// log10 of the values on a linear axis with decade ticks (logTicks).
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
		for _, a := range axes {
			p, err := r.axisPanel(a, m, i == 0)
			if err != nil {
				return fmt.Errorf("plot %s vs %s: %w", m.title, a, err)
			}
			rows[i] = append(rows[i], p)
		}
	}
	w := max(plotMinPx, plotColPx*len(axes))
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/plotDPI, plotHeightPx*vg.Inch/plotDPI), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	header := vg.Length(plotHeaderPx) * vg.Inch / plotDPI
	if err := r.drawLegend(draw.Crop(dc, 0, 0, dc.Max.Y-dc.Min.Y-header, 0)); err != nil {
		return fmt.Errorf("plot legend: %w", err)
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: len(axes), PadTop: 4, PadBottom: 4, PadLeft: 6, PadRight: 10, PadX: 12, PadY: 14}
	body := draw.Crop(dc, 0, 0, 0, -header)
	for i := range rows {
		for j := range rows[i] {
			rows[i][j].Draw(tiles.At(body, j, i))
		}
	}
	err := WriteFile(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// axisPanel plots metric m of every config against axis a.
// The legend is drawn once, above the panels (drawLegend).
func (r *Report) axisPanel(a string, m plotMetric, top bool) (*plot.Plot, error) {
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

	lo, hi := math.Inf(1), math.Inf(-1) // the plotted y range
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
				y = math.Log10(max(y, logFloor))
			}
			xy[k] = append(xy[k], plotter.XY{X: x, Y: y})
			lo, hi = min(lo, y), max(hi, y)
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
		l.LineStyle = medianLineStyle
		p.Add(l)
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
			s.GlyphStyle = glyphStyle(col, m.glyphs[k])
			p.Add(s)
		}
	}
	if lo > hi { // no data: a unit range
		lo, hi = 0, 1
	}
	if m.log {
		p.Y.Min, p.Y.Max = lo-0.3, max(hi, lo+1)+0.3
		p.Y.Tick.Marker = logTicks{}
		return p, nil
	}
	p.Y.Min, p.Y.Max = 0, max(hi, 1)*1.05
	return p, nil
}

var medianLineStyle = draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(1),
	Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}

func glyphStyle(c color.Color, shape draw.GlyphDrawer) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Shape: shape, Radius: vg.Points(3)}
}

// drawLegend draws the legend in c, a band above the panels: one column
// per compat mode present and panel row, and the median line.
func (r *Report) drawLegend(c draw.Canvas) error {
	compats := map[string]bool{}
	for i := range r.Configs {
		compats[r.Configs[i].Params["compat"]] = true
	}
	names := make([]string, 0, len(compats))
	for k := range compats {
		names = append(names, k)
	}
	slices.Sort(names)
	var cols []*plot.Legend
	newLegend := func() *plot.Legend {
		l := plot.NewLegend()
		l.Top, l.Left = true, true
		l.TextStyle.Font.Size = vg.Points(10)
		cols = append(cols, &l)
		return &l
	}
	for _, m := range plotMetrics {
		for _, compat := range names {
			col, ok := compatColors[compat]
			if !ok {
				col = otherColor
			}
			l := newLegend()
			for k := range 2 {
				s, err := plotter.NewScatter(plotter.XYs{{}})
				if err != nil {
					return err
				}
				s.GlyphStyle = glyphStyle(col, m.glyphs[k])
				l.Add(compat+" "+m.names[k], s)
			}
		}
	}
	line, err := plotter.NewLine(plotter.XYs{{}, {X: 1}})
	if err != nil {
		return err
	}
	line.LineStyle = medianLineStyle
	newLegend().Add("median over configs", line)
	width := (c.Max.X - c.Min.X) / vg.Length(len(cols))
	for i, l := range cols {
		l.Draw(draw.Crop(c, width*vg.Length(i)+vg.Points(12), -(c.Max.X-c.Min.X)+width*vg.Length(i+1), vg.Points(6), -vg.Points(6)))
	}
	return nil
}

// logTicks marks a linear axis of log10 values: a labelled tick at each
// decade, unlabelled ones at 2…9 times it.
type logTicks struct{}

// Ticks returns the ticks of [lo, hi] (log10 units).
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for d := math.Floor(lo); d <= math.Ceil(hi); d++ {
		for m := 1; m <= 9; m++ {
			v := d + math.Log10(float64(m))
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
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
