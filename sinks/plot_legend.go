package sinks

import (
	"image/color"

	"github.com/steadysweep/steadysweep/sinks/internal/canvas"
)

// legendItem is one entry of the figure's legend row: its label and a
// function drawing its thumbnail in a box.
type legendItem struct {
	label string
	thumb func(c canvas.Canvas, box canvas.Rect)
}

// lineThumb is a legend thumbnail of a line style alone.
func lineThumb(l canvas.Line) func(canvas.Canvas, canvas.Rect) {
	return func(c canvas.Canvas, box canvas.Rect) {
		y := (box.Min.Y + box.Max.Y) / 2
		c.Stroke([]canvas.Point{{X: box.Min.X, Y: y}, {X: box.Max.X, Y: y}}, l)
	}
}

// seriesThumb is the thumbnail of a per-super-pass series: its line
// with a point in the middle.
func seriesThumb(col color.Color) func(canvas.Canvas, canvas.Rect) {
	line := lineThumb(canvas.Line{Color: col, Width: seriesWidth})
	return func(c canvas.Canvas, box canvas.Rect) {
		line(c, box)
		canvas.Mark(c, canvas.Circle, canvas.Point{X: (box.Min.X + box.Max.X) / 2, Y: (box.Min.Y + box.Max.Y) / 2}, pointRadius, col)
	}
}

// Sizes of the header above the panels, in pixels.
const (
	titleSize   = 15 * pt
	legendSize  = 10 * pt
	noteSize    = 12 * pt
	thumbWidth  = 22 * pt
	thumbHeight = 11 * pt
	thumbGap    = 5 * pt  // between a thumbnail and its label
	itemGap     = 14 * pt // between two entries
	headerPad   = 6 * pt
)

// lineHeight is the ascent plus descent of the font at size.
func lineHeight(size float64) float64 {
	a, d := canvas.Metrics(size)
	return a + d
}

// headerHeight is the height drawHeader uses (with a note line or not).
func headerHeight(note bool) float64 {
	h := headerPad + lineHeight(titleSize) + headerPad + max(thumbHeight, lineHeight(legendSize)) + headerPad
	if note {
		h += lineHeight(noteSize) + headerPad
	}
	return h
}

// drawHeader draws the title centred at the top of a canvas w wide, the
// note (if any) under it, and below them the legend as one centred row
// shared by the panels, so no legend covers the data.
func drawHeader(c canvas.Canvas, w float64, title, note string, items []legendItem) {
	y := headerPad
	c.Text(canvas.Point{X: w / 2, Y: y}, title, canvas.Text{Size: titleSize, Color: color.Black, X: canvas.Center, Y: canvas.Top})
	y += lineHeight(titleSize) + headerPad
	if note != "" {
		c.Text(canvas.Point{X: w / 2, Y: y}, note,
			canvas.Text{Size: noteSize, Color: color.NRGBA{160, 40, 20, 255}, X: canvas.Center, Y: canvas.Top})
		y += lineHeight(noteSize) + headerPad
	}

	total := 0.0
	for i, it := range items {
		if i > 0 {
			total += itemGap
		}
		total += thumbWidth + thumbGap + canvas.Width(it.label, legendSize)
	}
	x := w/2 - total/2
	mid := y + max(thumbHeight, lineHeight(legendSize))/2
	ls := canvas.Text{Size: legendSize, Color: color.Black, Y: canvas.Middle}
	for _, it := range items {
		it.thumb(c, canvas.Rect{Min: canvas.Point{X: x, Y: mid - thumbHeight/2}, Max: canvas.Point{X: x + thumbWidth, Y: mid + thumbHeight/2}})
		x += thumbWidth + thumbGap
		c.Text(canvas.Point{X: x, Y: mid}, it.label, ls)
		x += canvas.Width(it.label, legendSize) + itemGap
	}
}
