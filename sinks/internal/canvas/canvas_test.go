package canvas

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

// TestMain checks that nothing parsed the font before the first test
// ran: package initialisation leaves it for the first text drawn
// (issue 32, steadysweep --version's start-up).
func TestMain(m *testing.M) {
	if face.f != nil {
		println("canvas: the font was parsed at package initialisation")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestDefaultTicksGonum: the ticks are gonum/plot v0.17.0's
// DefaultTicks, value for value and label for label, as printed by
// gonum itself (plot.DefaultTicks{}.Ticks, run before the dependency was
// dropped) over the ranges the plots see and some far from them.
func TestDefaultTicksGonum(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []Tick
	}{
		{29.999, 30.001, []Tick{{29.999000000000002, "30"}, {30.000000000000004, "30"}, {30.001, "30"}, {29.999200000000002, ""}, {29.9994, ""}, {29.9996, ""}, {29.999800000000004, ""}, {30.000200000000003, ""}, {30.000400000000003, ""}, {30.000600000000002, ""}, {30.0008, ""}}},
		{29.99999, 30.00001, []Tick{{29.999992, "30"}, {30, "30"}, {30.000007999999998, "30"}, {29.999996, ""}, {30.000004, ""}}},
		{29.5, 30.4, []Tick{{29.5, "29.50"}, {29.75, "29.75"}, {30, "30.00"}, {30.25, "30.25"}, {29.55, ""}, {29.6, ""}, {29.65, ""}, {29.7, ""}, {29.8, ""}, {29.85, ""}, {29.9, ""}, {29.95, ""}, {30.05, ""}, {30.1, ""}, {30.15, ""}, {30.2, ""}, {30.3, ""}, {30.35, ""}, {30.4, ""}}},
		{0, 1000, []Tick{{0, "0"}, {500, "500"}, {1000, "1000"}, {100, ""}, {200, ""}, {300, ""}, {400, ""}, {600, ""}, {700, ""}, {800, ""}, {900, ""}}},
		{71.5, 110.2, []Tick{{80, "80"}, {90, "90"}, {100, "100"}, {110, "110"}, {72, ""}, {74, ""}, {76, ""}, {78, ""}, {82, ""}, {84, ""}, {86, ""}, {88, ""}, {92, ""}, {94, ""}, {96, ""}, {98, ""}, {102, ""}, {104, ""}, {106, ""}, {108, ""}}},
		{47.3, 181.7, []Tick{{60, "60"}, {120, "120"}, {180, "180"}, {90, ""}, {150, ""}}},
		{0, 105, []Tick{{0, "0"}, {50, "50"}, {100, "100"}, {10, ""}, {20, ""}, {30, ""}, {40, ""}, {60, ""}, {70, ""}, {80, ""}, {90, ""}}},
		{-3.3, 0.48, []Tick{{-3, "-3"}, {-2, "-2"}, {-1, "-1"}, {0, "0"}, {-3.2, ""}, {-2.8, ""}, {-2.6, ""}, {-2.4, ""}, {-2.2, ""}, {-1.7999999999999998, ""}, {-1.5999999999999999, ""}, {-1.4, ""}, {-1.2, ""}, {-0.7999999999999998, ""}, {-0.5999999999999996, ""}, {-0.3999999999999999, ""}, {-0.19999999999999973, ""}, {0.20000000000000018, ""}, {0.40000000000000036, ""}}},
		{0.0123, 0.0456, []Tick{{0.015, "0.015"}, {0.03, "0.03"}, {0.045, "0.045"}, {0.0225, ""}, {0.0375, ""}}},
		{1e7, 3e7, []Tick{{1e+07, "1e+07"}, {2e+07, "2e+07"}, {3e+07, "3e+07"}, {1.2e+07, ""}, {1.4e+07, ""}, {1.6e+07, ""}, {1.8e+07, ""}, {2.2e+07, ""}, {2.4e+07, ""}, {2.6e+07, ""}, {2.8e+07, ""}}},
	} {
		got := DefaultTicks(tc.lo, tc.hi)
		if len(got) != len(tc.want) {
			t.Errorf("[%v, %v]: %d ticks %v, gonum's %d", tc.lo, tc.hi, len(got), got, len(tc.want))
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("[%v, %v]: tick %d = %+v, gonum's %+v", tc.lo, tc.hi, i, got[i], tc.want[i])
			}
		}
	}
	if DefaultTicks(1, 1) != nil {
		t.Error("an empty range has ticks")
	}
}

var (
	red   = color.NRGBA{255, 0, 0, 255}
	white = color.White
)

// TestRasterFill: an opaque rectangle on whole pixels paints exactly
// its pixels; a translucent one blends (alpha 34 of black over white
// is 255·(1−34/255) = 221); nothing lands outside the clip rectangle.
func TestRasterFill(t *testing.T) {
	c := NewRaster(40, 30, white)
	c.Fill(RectPath(Rect{Point{10, 5}, Point{20, 15}})[:4], red)
	img := c.Image()
	for _, tc := range []struct {
		x, y int
		want color.RGBA
	}{{10, 5, color.RGBA{255, 0, 0, 255}}, {19, 14, color.RGBA{255, 0, 0, 255}}, {9, 5, color.RGBA{255, 255, 255, 255}}, {20, 14, color.RGBA{255, 255, 255, 255}}} {
		if got := img.RGBAAt(tc.x, tc.y); got != tc.want {
			t.Errorf("pixel (%d,%d) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	c.Clip(Rect{Point{25, 0}, Point{30, 30}})
	c.Fill(RectPath(Rect{Point{0, 20}, Point{40, 30}})[:4], color.NRGBA{0, 0, 0, 34})
	c.Unclip()
	if got := img.RGBAAt(27, 25); got.R < 220 || got.R > 222 || got.R != got.G {
		t.Errorf("translucent black over white = %v, want grey 221", got)
	}
	if got := img.RGBAAt(24, 25); got != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("pixel left of the clip rectangle = %v, want white", got)
	}
}

// TestDash: a 100-pixel line dashed 6 on, 4 off has ten dashes of six
// pixels; no pattern leaves it whole.
func TestDash(t *testing.T) {
	pieces := dash([]Point{{0, 0}, {50, 0}, {100, 0}}, []float64{6, 4})
	if len(pieces) != 10 {
		t.Fatalf("%d dashes, want 10", len(pieces))
	}
	for i, p := range pieces {
		l := 0.0
		for j := 1; j < len(p); j++ {
			l += math.Hypot(p[j].X-p[j-1].X, p[j].Y-p[j-1].Y)
		}
		if math.Abs(l-6) > 1e-9 || math.Abs(p[0].X-float64(10*i)) > 1e-9 {
			t.Errorf("dash %d starts at %v, %v long; want %d, 6", i, p[0].X, l, 10*i)
		}
	}
	if got := dash([]Point{{0, 0}, {5, 5}}, nil); len(got) != 1 || len(got[0]) != 2 {
		t.Errorf("undashed line split: %v", got)
	}
}

// TestStroke: a 4-pixel horizontal line covers the rows within 2
// pixels of its centre and not the rows beyond.
func TestStroke(t *testing.T) {
	c := NewRaster(20, 20, white)
	c.Stroke([]Point{{2, 10}, {18, 10}}, Line{Color: red, Width: 4})
	img := c.Image()
	for y, want := range map[int]bool{8: true, 9: true, 10: true, 11: true, 7: false, 12: false} {
		if got := img.RGBAAt(10, y).G == 0; got != want {
			t.Errorf("row %d painted %v, want %v (%v)", y, got, want, img.RGBAAt(10, y))
		}
	}
}

// TestText: text draws ink inside its advance box, anchored as asked;
// a vertical label's ink is taller than wide.
func TestText(t *testing.T) {
	const size = 20
	w := Width("Hello", size)
	asc, desc := Metrics(size)
	// Liberation Serif's advance widths (units per em 2048): H 1479,
	// e 909, l 569, o 1024; "Hello" is 4550/2048 em, no kerning.
	if want := 4550.0 / 2048 * size; math.Abs(w-want) > 0.1 {
		t.Errorf("Width(Hello) = %v, want %v", w, want)
	}
	if asc <= desc || asc+desc < size || asc+desc > 1.3*size {
		t.Errorf("Metrics(%v) = %v, %v", size, asc, desc)
	}
	c := NewRaster(200, 100, white)
	c.Text(Point{100, 10}, "Hello", Text{Size: size, Color: red, X: Center, Y: Top})
	lo, hi := inkBox(c)
	if lo.X < 100-w/2-1 || hi.X > 100+w/2+1 || lo.Y < 10 || hi.Y > 10+asc+desc {
		t.Errorf("ink in %v–%v, outside the text's box x %v±%v, y 10..%v", lo, hi, 100, w/2, 10+asc+desc)
	}
	v := NewRaster(100, 200, white)
	v.Text(Point{50, 100}, "Hello", Text{Size: size, Color: red, X: Center, Y: Bottom, Vertical: true})
	lo, hi = inkBox(v)
	if hi.Y-lo.Y < 2*(hi.X-lo.X) || hi.X > 50+1 {
		t.Errorf("vertical text's ink in %v–%v: not a column left of x 50", lo, hi)
	}
}

// inkBox is the bounding box of the non-white pixels of c.
func inkBox(c *Raster) (lo, hi Point) {
	img := c.Image()
	b := img.Bounds()
	lo, hi = Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.RGBAAt(x, y) != (color.RGBA{255, 255, 255, 255}) {
				lo.X, lo.Y = min(lo.X, float64(x)), min(lo.Y, float64(y))
				hi.X, hi.Y = max(hi.X, float64(x+1)), max(hi.Y, float64(y+1))
			}
		}
	}
	return lo, hi
}

// TestSVG: the SVG is well-formed XML with the drawing's elements, the
// translucent fill's opacity, the dashes and the escaped text.
func TestSVG(t *testing.T) {
	c := NewSVG(120, 80, white)
	c.Clip(Rect{Point{10, 10}, Point{110, 70}})
	c.Fill(RectPath(Rect{Point{0, 0}, Point{50, 50}})[:4], color.NRGBA{0, 0, 0, 34})
	c.Stroke([]Point{{0, 40}, {120, 40}}, Line{Color: red, Width: 2, Dashes: []float64{6, 4}})
	c.Unclip()
	c.Text(Point{60, 5}, "a < b & c", Text{Size: 12, Color: color.Black, X: Center, Y: Top, Vertical: true})
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	var names []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, b.String())
		}
		if se, ok := tok.(xml.StartElement); ok {
			names = append(names, se.Name.Local)
		}
	}
	if got := strings.Join(names, " "); got != "svg rect clipPath rect g polygon polyline text" {
		t.Errorf("elements %q", got)
	}
	for _, want := range []string{`fill-opacity="0.133"`, `stroke-dasharray="6,4"`, `a &lt; b &amp; c`, `rotate(-90`, `width="120"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("SVG lacks %s:\n%s", want, b.String())
		}
	}
}

// TestWritePNG: the PNG decodes to the canvas's size.
func TestWritePNG(t *testing.T) {
	c := NewRaster(30, 20, white)
	var b bytes.Buffer
	if err := c.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil || img.Bounds().Dx() != 30 || img.Bounds().Dy() != 20 {
		t.Fatalf("decoded %v, %v", img, err)
	}
}
