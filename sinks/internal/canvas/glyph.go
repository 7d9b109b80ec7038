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

// Marks draws glyph g of radius r in col at every point of pts. A raster
// canvas fills opaque discs as one shape, their union, in one
// rasteriser pass over the panel rather than one per point (a series of
// 10,000 super-passes); drawn one by one over each other in an opaque
// colour they look the same. Other glyphs, translucent colours and
// other canvases draw one mark at a time.
func Marks(c Canvas, g Glyph, pts []Point, r float64, col color.Color) {
	if rc, ok := c.(*Raster); ok && g == Circle && opaque(col) {
		rc.discs(pts, r, col)
		return
	}
	for _, p := range pts {
		Mark(c, g, p, r, col)
	}
}

// opaque reports col covering what is under it.
func opaque(col color.Color) bool {
	_, _, _, a := col.RGBA()
	return a == 0xffff
}
