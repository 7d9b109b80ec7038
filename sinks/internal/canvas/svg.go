package canvas

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
)

// SVG is a Canvas writing SVG elements; text is SVG text in the plot's
// font family (with generic fallbacks), placed with the same metrics as
// the raster backend.
type SVG struct {
	w, h  float64
	b     bytes.Buffer
	clips int
	inner bool // inside a clipped group
}

var _ Canvas = (*SVG)(nil)

// NewSVG is a w×h pixel SVG canvas filled with bg.
func NewSVG(w, h int, bg color.Color) *SVG {
	c := &SVG{w: float64(w), h: float64(h)}
	fmt.Fprintf(&c.b, `<rect width="%d" height="%d"%s/>`+"\n", w, h, paint("fill", bg))
	return c
}

func (c *SVG) Size() (float64, float64) { return c.w, c.h }

// WriteTo writes the SVG document.
func (c *SVG) WriteTo(w io.Writer) (int64, error) {
	c.Unclip()
	var out bytes.Buffer
	fmt.Fprintf(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"+
		`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n",
		num(c.w), num(c.h), num(c.w), num(c.h))
	out.Write(c.b.Bytes())
	out.WriteString("</svg>\n")
	return out.WriteTo(w)
}

func (c *SVG) Clip(r Rect) {
	c.Unclip()
	c.clips++
	fmt.Fprintf(&c.b, `<clipPath id="c%d"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath><g clip-path="url(#c%d)">`+"\n",
		c.clips, num(r.Min.X), num(r.Min.Y), num(r.Dx()), num(r.Dy()), c.clips)
	c.inner = true
}

func (c *SVG) Unclip() {
	if c.inner {
		c.b.WriteString("</g>\n")
		c.inner = false
	}
}

func (c *SVG) Stroke(pts []Point, l Line) {
	if len(pts) < 2 || l.Width <= 0 || l.Color == nil {
		return
	}
	fmt.Fprintf(&c.b, `<polyline points="%s" fill="none"%s stroke-width="%s"`, points(pts), paint("stroke", l.Color), num(l.Width))
	if len(l.Dashes) > 0 {
		c.b.WriteString(` stroke-dasharray="`)
		for i, d := range l.Dashes {
			if i > 0 {
				c.b.WriteByte(',')
			}
			c.b.WriteString(num(d))
		}
		c.b.WriteByte('"')
	}
	c.b.WriteString(` stroke-linejoin="round"/>` + "\n")
}

func (c *SVG) Fill(pts []Point, col color.Color) {
	if len(pts) < 3 || col == nil {
		return
	}
	fmt.Fprintf(&c.b, `<polygon points="%s"%s/>`+"\n", points(pts), paint("fill", col))
}

func (c *SVG) Text(p Point, s string, t Text) {
	if s == "" || t.Color == nil {
		return
	}
	// The baseline origin is computed as for the raster backend, so the
	// two agree wherever the SVG viewer has the font.
	o, _, _ := textOrigin(p, s, t)
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" font-family="Liberation Serif, Times New Roman, Times, serif" font-size="%s" xml:space="preserve"%s`,
		num(o.X), num(o.Y), num(t.Size), paint("fill", t.Color))
	if t.Vertical {
		fmt.Fprintf(&c.b, ` transform="rotate(-90 %s %s)"`, num(o.X), num(o.Y))
	}
	c.b.WriteByte('>')
	writeEscaped(&c.b, s)
	c.b.WriteString("</text>\n")
}

// writeEscaped writes s to b as html.EscapeString escapes it: the five
// characters that can end SVG text or an attribute value (&, ', <, >,
// ") as entities, everything else as it is. It is written out here
// because package html's init builds its entity replacer in every
// process (issue 32), and this is the only escape the binary needs.
func writeEscaped(b *bytes.Buffer, s string) {
	for {
		i := strings.IndexAny(s, `&'<>"`)
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		switch s[i] {
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default: // '"'
			b.WriteString("&#34;")
		}
		s = s[i+1:]
	}
}

// paint is the attribute setting name (fill or stroke) to col, with its
// opacity when translucent.
func paint(name string, col color.Color) string {
	n := color.NRGBAModel.Convert(col).(color.NRGBA)
	s := fmt.Sprintf(` %s="#%02x%02x%02x"`, name, n.R, n.G, n.B)
	if n.A != 255 {
		s += fmt.Sprintf(` %s-opacity="%s"`, name, strconv.FormatFloat(float64(n.A)/255, 'f', 3, 64))
	}
	return s
}

func points(pts []Point) string {
	var b bytes.Buffer
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X))
		b.WriteByte(',')
		b.WriteString(num(p.Y))
	}
	return b.String()
}

// num is v with two decimals at most (a hundredth of a pixel).
func num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*100+copysignHalf(v)))/100, 'f', -1, 64)
}

func copysignHalf(v float64) float64 {
	if v < 0 {
		return -0.5
	}
	return 0.5
}
