package canvas

import (
	"fmt"
	"sync"

	"codeberg.org/go-fonts/liberation/liberationserifregular"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The one font of the plots, Liberation Serif (gonum/plot's default,
// so the plots keep their look), parsed on the first text measured or
// drawn: a process that draws no plot never parses it. sfnt.Buffer is
// not safe for concurrent use, hence the mutex.
var face struct {
	once sync.Once
	f    *sfnt.Font
	mu   sync.Mutex
	buf  sfnt.Buffer
}

func loadFace() *sfnt.Font {
	face.once.Do(func() {
		f, err := sfnt.Parse(liberationserifregular.TTF)
		if err != nil { // the embedded font is a constant of the build
			panic(fmt.Sprintf("canvas: embedded font: %v", err))
		}
		face.f = f
	})
	return face.f
}

// fix is a size in pixels as the 26.6 fixed point sfnt takes.
func fix(v float64) fixed.Int26_6 { return fixed.Int26_6(v*64 + 0.5) }

func unfix(v fixed.Int26_6) float64 { return float64(v) / 64 }

// Width is the advance width in pixels of s at size (em in pixels).
func Width(s string, size float64) float64 {
	loadFace()
	face.mu.Lock()
	defer face.mu.Unlock()
	w := 0.0
	glyphs(s, size, func(_ sfnt.GlyphIndex, _ float64, adv float64) { w += adv })
	return w
}

// Metrics are the ascent and descent (both positive, pixels) of the
// font at size.
func Metrics(size float64) (ascent, descent float64) {
	f := loadFace()
	face.mu.Lock()
	defer face.mu.Unlock()
	m, err := f.Metrics(&face.buf, fix(size), font.HintingNone)
	if err != nil {
		return size * 0.891, size * 0.216 // Liberation's hhea values
	}
	return unfix(m.Ascent), unfix(m.Descent)
}

// glyphs calls fn with each glyph of s, its pen position along the
// baseline and its advance (kerning included), in pixels at size.
// Runes the font lacks draw as its .notdef glyph. The caller holds
// face.mu after loadFace.
func glyphs(s string, size float64, fn func(g sfnt.GlyphIndex, pen, adv float64)) {
	f := face.f
	ppem := fix(size)
	pen := 0.0
	prev := sfnt.GlyphIndex(0)
	for i, r := range s {
		g, err := f.GlyphIndex(&face.buf, r)
		if err != nil {
			g = 0
		}
		if i > 0 {
			if k, err := f.Kern(&face.buf, prev, g, ppem, font.HintingNone); err == nil {
				pen += unfix(k)
			}
		}
		adv, err := f.GlyphAdvance(&face.buf, g, ppem, font.HintingNone)
		if err != nil {
			adv = 0
		}
		fn(g, pen, unfix(adv))
		pen += unfix(adv)
		prev = g
	}
}

// segment is one piece of a glyph outline: a move, line, quadratic or
// cubic to the last of its points.
type segment struct {
	op  sfnt.SegmentOp
	pts [3]Point
	n   int
}

// outline is the outline of s at size as segments relative to the
// baseline origin, y down.
func outline(s string, size float64) []segment {
	loadFace()
	face.mu.Lock()
	defer face.mu.Unlock()
	var out []segment
	glyphs(s, size, func(g sfnt.GlyphIndex, pen, _ float64) {
		segs, err := face.f.LoadGlyph(&face.buf, g, fix(size), nil)
		if err != nil {
			return
		}
		for _, sg := range segs {
			o := segment{op: sg.Op}
			switch sg.Op {
			case sfnt.SegmentOpMoveTo, sfnt.SegmentOpLineTo:
				o.n = 1
			case sfnt.SegmentOpQuadTo:
				o.n = 2
			case sfnt.SegmentOpCubeTo:
				o.n = 3
			}
			for i := range o.n {
				o.pts[i] = Point{pen + unfix(sg.Args[i].X), unfix(sg.Args[i].Y)}
			}
			out = append(out, o)
		}
	})
	return out
}

// textOrigin is the baseline origin of s written with t anchored at p,
// and the unit vectors along and across (downwards) the text.
func textOrigin(p Point, s string, t Text) (o, along, down Point) {
	along, down = Point{1, 0}, Point{0, 1}
	if t.Vertical {
		along, down = Point{0, -1}, Point{1, 0}
	}
	ax := 0.0
	switch t.X {
	case Center:
		ax = -Width(s, t.Size) / 2
	case Right:
		ax = -Width(s, t.Size)
	}
	asc, desc := Metrics(t.Size)
	ay := 0.0
	switch t.Y {
	case Top:
		ay = asc
	case Middle:
		ay = (asc - desc) / 2
	case Bottom:
		ay = -desc
	}
	return Point{p.X + along.X*ax + down.X*ay, p.Y + along.Y*ax + down.Y*ay}, along, down
}
