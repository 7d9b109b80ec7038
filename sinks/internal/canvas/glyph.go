package canvas

import (
	"image/color"
	"math"
)

// Glyph is the shape of a scatter mark.
type Glyph int

const (
	Circle   Glyph = iota // filled disc
	Triangle              // outlined triangle, apex up
	Cross                 // an x
)

// glyphLine is the stroke width of the outlined glyphs: gonum/plot's
// half a point at 96 dpi.
const glyphLine = 0.5 * 96 / 72

// Mark draws glyph g of radius r in col centred at p.
func Mark(c Canvas, g Glyph, p Point, r float64, col color.Color) {
	switch g {
	case Circle:
		c.Fill(disc(p, r), col)
	case Triangle:
		s, cs := math.Sincos(math.Pi / 6)
		r += (r - r*s) / 2
		c.Stroke([]Point{{p.X, p.Y - r}, {p.X - r*cs, p.Y + r*s}, {p.X + r*cs, p.Y + r*s}, {p.X, p.Y - r}},
			Line{Color: col, Width: glyphLine})
	case Cross:
		d := r * math.Cos(math.Pi/4)
		l := Line{Color: col, Width: glyphLine}
		c.Stroke([]Point{{p.X - d, p.Y - d}, {p.X + d, p.Y + d}}, l)
		c.Stroke([]Point{{p.X - d, p.Y + d}, {p.X + d, p.Y - d}}, l)
	}
}
