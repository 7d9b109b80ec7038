package htmlpage

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// Calibration is what a calibration page shows, filled by
// sweep/calibrate from its report: sections of text, tables and
// scatter plots, and the record the page embeds. Text and table cells are
// inline Markdown: **bold** and `code`, nothing else.
type Calibration struct {
	Title    string
	Intro    []string
	Sections []CalibrationSection
	// Record is the page's record (a pyjson value).
	Record any
}

// CalibrationSection is a titled part of the page.
type CalibrationSection struct {
	Title string
	// Text are paragraphs; one starting "- " is a bullet.
	Text   []string
	Tables []CalibrationTable
	Plots  []ScatterPlot
}

// CalibrationTable is a table of inline-Markdown cells; Align has one
// letter per column, l or r (missing: l).
type CalibrationTable struct {
	Caption, Note string
	Head          []string
	Rows          [][]string
	Align         string
	Sortable      bool
}

// ScatterPlot is one metric of configs against one parameter: a column of
// marks per parameter value (Categories), spread by each point's Offset
// (within ±0.5), on a linear or log10 y axis, with an optional line
// through per-value points (Line, one Y per category, NaN for none).
type ScatterPlot struct {
	Title, YLabel string
	Log           bool
	Categories    []string
	Series        []ScatterSeries
	Line          []float64
	LineName      string
}

// ScatterSeries are the marks of one kind; Class picks colour and shape
// (c0…c5 colours, "hollow" for open marks).
type ScatterSeries struct {
	Name, Class string
	Points      []ScatterPoint
}

// ScatterPoint is one mark: its category, offset, value and hover text.
type ScatterPoint struct {
	Category int
	Offset   float64
	Y        float64
	Hover    string
}

// WriteCalibration writes the calibration page to w.
func WriteCalibration(w io.Writer, c Calibration) error {
	v := calibrationView{Title: c.Title, Intro: paragraphs(c.Intro)}
	for _, s := range c.Sections {
		sv := calibrationSectionView{Title: s.Title, Text: paragraphs(s.Text)}
		for _, t := range s.Tables {
			sv.Tables = append(sv.Tables, calibrationTableView(t))
		}
		for i, p := range s.Plots {
			sv.Plots = append(sv.Plots, p.layout("plot-"+strconv.Itoa(len(v.Sections))+"-"+strconv.Itoa(i)))
		}
		v.Sections = append(v.Sections, sv)
	}
	return writePage(w, "calibration", c.Title, c.Record, func(p *pageWriter) { p.calibrationBody(&v) })
}

type calibrationView struct {
	Title    string
	Intro    []paragraph
	Sections []calibrationSectionView
}

type calibrationSectionView struct {
	Title  string
	Text   []paragraph
	Tables []mdTable
	Plots  []chart
}

// paragraph is a paragraph of text; HTML is its inline Markdown made
// HTML (inlineMarkdown).
type paragraph struct {
	Bullet bool
	HTML   string
}

type mdTable struct {
	Caption, Note string
	Head          []string
	Rows          [][]mdCell
	Sortable      bool
}

// mdCell is a table cell; HTML is its inline Markdown made HTML.
type mdCell struct {
	HTML  string
	Class string
}

func paragraphs(text []string) []paragraph {
	out := make([]paragraph, 0, len(text))
	for _, t := range text {
		p := paragraph{}
		if rest, ok := strings.CutPrefix(t, "- "); ok {
			p.Bullet, t = true, rest
		}
		p.HTML = inlineMarkdown(t)
		out = append(out, p)
	}
	return out
}

func calibrationTableView(t CalibrationTable) mdTable {
	v := mdTable{Caption: t.Caption, Note: t.Note, Head: t.Head, Sortable: t.Sortable}
	for _, r := range t.Rows {
		row := make([]mdCell, len(r))
		for j, c := range r {
			row[j] = mdCell{HTML: inlineMarkdown(c)}
			if j < len(t.Align) && t.Align[j] == 'r' {
				row[j].Class = "num"
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// logFloor is the smallest value a log axis shows (values below sit on
// it).
const logFloor = 1e-3

// layout lays the scatter plot out as a chart: categories spread evenly
// along x, y linear from 0 or log10 with decade ticks.
func (p ScatterPlot) layout(id string) chart {
	c := chart{ID: id, Title: p.Title, Unit: p.YLabel, W: chartW, H: chartH,
		Plot: box{chartLeft, chartTop, chartW - chartLeft - chartRight, chartH - chartTop - chartBottom}}
	tr := func(v float64) float64 {
		if p.Log {
			return math.Log10(math.Max(v, logFloor))
		}
		return v
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		c.Legend = append(c.Legend, legendItem{Class: s.Class + " mark", Name: s.Name})
		for _, pt := range s.Points {
			if finite(pt.Y) {
				lo, hi = math.Min(lo, tr(pt.Y)), math.Max(hi, tr(pt.Y))
			}
		}
	}
	if p.LineName != "" {
		c.Legend = append(c.Legend, legendItem{Class: "median ref", Name: p.LineName})
	}
	n := len(p.Categories)
	if n == 0 || lo > hi {
		c.Empty = "no values to plot"
		return c
	}
	var ticks []float64
	var ylo, yhi float64
	if p.Log {
		ylo, yhi = math.Floor(lo), math.Max(math.Ceil(hi), math.Floor(lo)+1)
		for d := ylo; d <= yhi; d++ {
			ticks = append(ticks, d)
		}
	} else {
		ticks, ylo, yhi = niceTicks(math.Min(0, lo), math.Max(hi, 1), 5)
	}
	pl := c.Plot
	step := pl.W / float64(n)
	x := func(cat int, off float64) float64 { return pl.X + (float64(cat)+0.5+off)*step }
	y := func(v float64) float64 { return pl.Y + pl.H - (tr(v)-ylo)/(yhi-ylo)*pl.H }
	for _, t := range ticks {
		label := tickText(t, ticks)
		pos := pl.Y + pl.H - (t-ylo)/(yhi-ylo)*pl.H
		if p.Log {
			label = strconv.FormatFloat(math.Pow(10, t), 'g', -1, 64)
		}
		c.YTicks = append(c.YTicks, tick{Pos: pos, Text: label})
	}
	for i, cat := range p.Categories {
		c.XTicks = append(c.XTicks, tick{Pos: x(i, 0), Text: cat})
	}
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if finite(pt.Y) && pt.Category >= 0 && pt.Category < n {
				c.Points = append(c.Points, point{X: x(pt.Category, math.Max(-0.45, math.Min(0.45, pt.Offset))), Y: y(pt.Y),
					SP: pt.Category, Class: s.Class, Title: pt.Hover})
			}
		}
	}
	var d strings.Builder
	for i, v := range p.Line {
		if i >= n || !finite(v) {
			continue
		}
		if d.Len() == 0 {
			d.WriteString("M")
		} else {
			d.WriteString(" L")
		}
		d.WriteString(coord(x(i, 0)) + "," + coord(y(v)))
	}
	if d.Len() > 0 {
		c.Lines = append(c.Lines, path{Class: "median", D: d.String()})
	}
	return c
}
