package sinks

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendItem is one entry of the figure's legend row.
type legendItem struct {
	label  string
	thumbs []plot.Thumbnailer
}

// Sizes of the header above the panels.
const (
	titleSize   = 15
	legendSize  = 10
	thumbWidth  = vg.Length(22)
	thumbHeight = vg.Length(11)
	thumbGap    = vg.Length(5)  // between a thumbnail and its label
	itemGap     = vg.Length(14) // between two entries
	headerPad   = vg.Length(6)
)

func headerText(size vg.Length, xAlign text.XAlignment) text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, size), XAlign: xAlign,
		YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
}

// noteSize is the font size of the note line under the title.
const noteSize = 12

// headerHeight is the height drawHeader uses (with a note line or not).
func headerHeight(note bool) vg.Length {
	h := headerPad + headerText(titleSize, draw.XCenter).Height("X") + headerPad +
		max(thumbHeight, headerText(legendSize, draw.XLeft).Height("X")) + headerPad
	if note {
		h += headerText(noteSize, draw.XCenter).Height("X") + headerPad
	}
	return h
}

// drawHeader draws the title centred at the top of c, the note (if any)
// under it, and below them the legend as one centred row shared by the
// panels, so no legend covers the data.
func drawHeader(c draw.Canvas, title, note string, items []legendItem) {
	ts := headerText(titleSize, draw.XCenter)
	y := c.Max.Y - headerPad
	c.FillText(ts, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, title)
	y -= ts.Height(title) + headerPad
	if note != "" {
		ns := headerText(noteSize, draw.XCenter)
		ns.Color = color.NRGBA{160, 40, 20, 255}
		c.FillText(ns, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, note)
		y -= ns.Height(note) + headerPad
	}

	ls := headerText(legendSize, draw.XLeft)
	ls.YAlign = draw.YCenter
	total := vg.Length(0)
	for i, it := range items {
		if i > 0 {
			total += itemGap
		}
		total += thumbWidth + thumbGap + ls.Width(it.label)
	}
	x := (c.Min.X+c.Max.X)/2 - total/2
	mid := y - max(thumbHeight, ls.Height("X"))/2
	for _, it := range items {
		box := draw.Crop(c, 0, 0, 0, 0)
		box.Min = vg.Point{X: x, Y: mid - thumbHeight/2}
		box.Max = vg.Point{X: x + thumbWidth, Y: mid + thumbHeight/2}
		for _, t := range it.thumbs {
			t.Thumbnail(&box)
		}
		x += thumbWidth + thumbGap
		c.FillText(ls, vg.Point{X: x, Y: mid}, it.label)
		x += ls.Width(it.label) + itemGap
	}
}
