package canvas

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"slices"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/vector"
)

// Raster is a Canvas on an image.RGBA, anti-aliased by
// golang.org/x/image/vector; strokes are filled as polygons.
type Raster struct {
	img  *image.RGBA
	clip Rect
	z    vector.Rasterizer
	// Scratch reused by every draw: the polygons to fill, the same
	// clipped, and a decimated polyline.
	polys, clipped polys
	line           []Point
	mask           image.Alpha
}

var _ Canvas = (*Raster)(nil)

// NewRaster is a w×h pixel canvas filled with bg.
func NewRaster(w, h int, bg color.Color) *Raster {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	c := &Raster{img: img}
	c.Unclip()
	return c
}

// Image is the drawing.
func (c *Raster) Image() *image.RGBA { return c.img }

// WritePNG encodes the drawing as PNG to w.
func (c *Raster) WritePNG(w io.Writer) error { return png.Encode(w, c.img) }

func (c *Raster) Size() (float64, float64) {
	b := c.img.Bounds()
	return float64(b.Dx()), float64(b.Dy())
}

func (c *Raster) Clip(r Rect) { c.clip = r }

func (c *Raster) Unclip() {
	w, h := c.Size()
	c.clip = Rect{Max: Point{w, h}}
}

func (c *Raster) Fill(pts []Point, col color.Color) {
	c.polys.reset()
	c.polys.add(pts...)
	c.fill(col)
}

// Stroke fills the stroke's polygons in one rasteriser pass, each "on"
// piece of a dashed line decimated to the pixel columns it crosses.
func (c *Raster) Stroke(pts []Point, l Line) {
	if l.Width <= 0 || l.Color == nil {
		return
	}
	c.polys.reset()
	for _, piece := range dash(pts, l.Dashes) {
		c.line = decimate(piece, c.line[:0])
		c.polys.addStroke(c.line, l.Width)
	}
	c.fill(l.Color)
}

// discs fills the union of the discs of radius r about pts in one
// rasteriser pass (Marks of opaque circles).
func (c *Raster) discs(pts []Point, r float64, col color.Color) {
	c.polys.reset()
	c.polys.grow(len(pts), discSides(r))
	for _, p := range pts {
		c.polys.addDisc(p, r)
	}
	c.fill(col)
}

// fill rasterises the union of c.polys (each clipped to the clip
// rectangle) into the pixels of their bounding box and blends col over
// them. Only when some polygon crosses the clip rectangle are the
// polygons clipped (into c.clipped), and then only those that cross.
func (c *Raster) fill(col color.Color) {
	if col == nil {
		return
	}
	lo, hi := bounds(c.polys.pts)
	ps := &c.polys
	if lo.X < c.clip.Min.X || lo.Y < c.clip.Min.Y || hi.X > c.clip.Max.X || hi.Y > c.clip.Max.Y {
		lo, hi = c.clipPolys()
		ps = &c.clipped
	}
	if len(ps.ends) == 0 || lo.X > hi.X {
		return
	}
	box := image.Rect(int(math.Floor(lo.X)), int(math.Floor(lo.Y)), int(math.Ceil(hi.X)), int(math.Ceil(hi.Y))).Intersect(c.img.Bounds())
	if box.Empty() {
		return
	}
	c.z.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for i := range ps.ends {
		p := ps.at(i)
		if len(p) < 3 {
			continue
		}
		c.z.MoveTo(float32(p[0].X)-ox, float32(p[0].Y)-oy)
		for _, q := range p[1:] {
			c.z.LineTo(float32(q.X)-ox, float32(q.Y)-oy)
		}
		c.z.ClosePath()
	}
	c.paint(box, col)
}

// paint blends col over the pixels of box by the coverage accumulated
// in c.z. The rasteriser writes its coverage straight into an alpha mask
// (its SIMD path) and paint blends only the covered pixels: a series'
// box is a whole panel, mostly uncovered, which vector's own Draw
// blends pixel by pixel, covered or not. The blend is vector's
// (rasterizeDstRGBASrcUniformOpOver) with the coverage rounded to 8 bits.
func (c *Raster) paint(box image.Rectangle, col color.Color) {
	w, h := box.Dx(), box.Dy()
	m := &c.mask
	if n := w * h; cap(m.Pix) < n {
		m.Pix = make([]uint8, n)
	} else {
		m.Pix = m.Pix[:n]
	}
	m.Stride, m.Rect = w, image.Rect(0, 0, w, h)
	c.z.DrawOp = draw.Src
	c.z.Draw(m, m.Rect, image.Opaque, image.Point{})
	sr, sg, sb, sa := col.RGBA()
	for y := range h {
		pix := c.img.Pix[c.img.PixOffset(box.Min.X, box.Min.Y+y):]
		for x, a := range m.Pix[y*w : (y+1)*w] {
			if a == 0 {
				continue
			}
			ma := uint32(a) * 0x101
			k := 0xffff - sa*ma/0xffff
			p := pix[4*x : 4*x+4 : 4*x+4]
			p[0] = uint8(((uint32(p[0])*0x101*k + sr*ma) / 0xffff) >> 8)
			p[1] = uint8(((uint32(p[1])*0x101*k + sg*ma) / 0xffff) >> 8)
			p[2] = uint8(((uint32(p[2])*0x101*k + sb*ma) / 0xffff) >> 8)
			p[3] = uint8(((uint32(p[3])*0x101*k + sa*ma) / 0xffff) >> 8)
		}
	}
}

// clipPolys sets c.clipped to c.polys clipped to the clip rectangle
// (polygons inside it copied as they are, those left with under three
// points dropped) and returns their bounds.
func (c *Raster) clipPolys() (lo, hi Point) {
	lo, hi = Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	c.clipped.reset()
	c.clipped.pts = slices.Grow(c.clipped.pts, len(c.polys.pts))
	c.clipped.ends = slices.Grow(c.clipped.ends, len(c.polys.ends))
	for i := range c.polys.ends {
		p := c.polys.at(i)
		plo, phi := bounds(p)
		if plo.X < c.clip.Min.X || plo.Y < c.clip.Min.Y || phi.X > c.clip.Max.X || phi.Y > c.clip.Max.Y {
			p = clipPolygon(p, c.clip)
			plo, phi = bounds(p)
		}
		if len(p) < 3 {
			continue
		}
		lo.X, lo.Y, hi.X, hi.Y = min(lo.X, plo.X), min(lo.Y, plo.Y), max(hi.X, phi.X), max(hi.Y, phi.Y)
		c.clipped.add(p...)
	}
	return lo, hi
}

// bounds is the smallest rectangle holding pts (lo, hi corners).
func bounds(pts []Point) (lo, hi Point) {
	lo, hi = Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, q := range pts {
		lo.X, lo.Y, hi.X, hi.Y = min(lo.X, q.X), min(lo.Y, q.Y), max(hi.X, q.X), max(hi.Y, q.Y)
	}
	return lo, hi
}

// Text fills the glyph outlines of s, cropped to the clip rectangle.
func (c *Raster) Text(p Point, s string, t Text) {
	if s == "" || t.Color == nil {
		return
	}
	o, along, down := textOrigin(p, s, t)
	at := func(q Point) Point {
		return Point{o.X + along.X*q.X + down.X*q.Y, o.Y + along.Y*q.X + down.Y*q.Y}
	}
	segs := outline(s, t.Size)
	lo, hi := Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, sg := range segs {
		for _, q := range sg.pts[:sg.n] {
			q = at(q)
			lo.X, lo.Y, hi.X, hi.Y = min(lo.X, q.X), min(lo.Y, q.Y), max(hi.X, q.X), max(hi.Y, q.Y)
		}
	}
	box := image.Rect(int(math.Floor(lo.X)), int(math.Floor(lo.Y)), int(math.Ceil(hi.X))+1, int(math.Ceil(hi.Y))+1)
	clip := image.Rect(int(math.Floor(c.clip.Min.X)), int(math.Floor(c.clip.Min.Y)), int(math.Ceil(c.clip.Max.X)), int(math.Ceil(c.clip.Max.Y)))
	box = box.Intersect(clip).Intersect(c.img.Bounds())
	if box.Empty() {
		return
	}
	c.z.Reset(box.Dx(), box.Dy())
	f := func(q Point) (float32, float32) {
		q = at(q)
		return float32(q.X) - float32(box.Min.X), float32(q.Y) - float32(box.Min.Y)
	}
	for _, sg := range segs {
		switch sg.op {
		case sfnt.SegmentOpMoveTo:
			c.z.MoveTo(f(sg.pts[0]))
		case sfnt.SegmentOpLineTo:
			c.z.LineTo(f(sg.pts[0]))
		case sfnt.SegmentOpQuadTo:
			x1, y1 := f(sg.pts[0])
			x2, y2 := f(sg.pts[1])
			c.z.QuadTo(x1, y1, x2, y2)
		case sfnt.SegmentOpCubeTo:
			x1, y1 := f(sg.pts[0])
			x2, y2 := f(sg.pts[1])
			x3, y3 := f(sg.pts[2])
			c.z.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	c.paint(box, t.Color)
}
