// Package canvas draws the plots of sinks: a small vector canvas with a
// raster backend (anti-aliased image.RGBA, written as PNG) and an SVG
// backend, axes with ticks, and one embedded font parsed on first use.
// It replaces gonum.org/v1/plot, whose root package parses twelve fonts
// and initialises LaTeX, PDF and gob packages at every process start
// (bench/RESULTS.md §8, "--version"); nothing here runs at init.
//
// Coordinates are pixels, x to the right and y down, origin top left.
package canvas

import "image/color"

// Point is a position in pixels.
type Point struct{ X, Y float64 }

// Rect is the rectangle Min ≤ p < Max.
type Rect struct{ Min, Max Point }

// Dx and Dy are the width and height of r.
func (r Rect) Dx() float64 { return r.Max.X - r.Min.X }
func (r Rect) Dy() float64 { return r.Max.Y - r.Min.Y }

// Inset is r shrunk by d on every side.
func (r Rect) Inset(d float64) Rect {
	return Rect{Point{r.Min.X + d, r.Min.Y + d}, Point{r.Max.X - d, r.Max.Y - d}}
}

// Line is how a line is stroked: colour, width in pixels, and dashes
// (alternating on and off lengths in pixels; none for a solid line).
type Line struct {
	Color  color.Color
	Width  float64
	Dashes []float64
}

// XAlign places text horizontally against its anchor point.
type XAlign int

const (
	Left XAlign = iota
	Center
	Right
)

// YAlign places text vertically against its anchor point.
type YAlign int

const (
	Baseline YAlign = iota
	Top             // the font's ascent at the anchor
	Middle          // halfway between ascent and descent
	Bottom          // the font's descent at the anchor
)

// Text is how a string is written: size in pixels (the em), colour,
// alignment, and Vertical for text read bottom to top (a y-axis label).
type Text struct {
	Size     float64
	Color    color.Color
	X        XAlign
	Y        YAlign
	Vertical bool
}

// Canvas is what the plots draw on. Drawing outside the clip rectangle
// (the whole canvas unless Clip set one) leaves no mark.
type Canvas interface {
	// Size is the canvas's width and height in pixels.
	Size() (w, h float64)
	// Stroke draws the polyline through pts.
	Stroke(pts []Point, l Line)
	// Fill fills the polygon pts (closed implicitly) with c, blended
	// over what is there (c may be translucent).
	Fill(pts []Point, c color.Color)
	// Text writes s anchored at p.
	Text(p Point, s string, t Text)
	// Clip limits later drawing to r; Unclip lifts the limit.
	Clip(r Rect)
	Unclip()
}

// RectPath is the closed outline of r, clockwise on screen from top left.
func RectPath(r Rect) []Point {
	return []Point{r.Min, {r.Max.X, r.Min.Y}, r.Max, {r.Min.X, r.Max.Y}, r.Min}
}
