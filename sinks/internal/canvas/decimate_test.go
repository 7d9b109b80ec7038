package canvas

import (
	"image/color"
	"math"
	"slices"
	"testing"
)

// TestDecimate: a run of more than four points in one pixel column is
// cut to its first, highest, lowest and last points in their order;
// shorter runs (a dash turning a corner in one column) and points in
// columns of their own are kept as they are.
func TestDecimate(t *testing.T) {
	type decimation struct {
		name    string
		in, out []Point
	}
	cases := []decimation{
		{"one per column", []Point{{0.5, 3}, {1.5, 9}, {2.5, 1}}, []Point{{0.5, 3}, {1.5, 9}, {2.5, 1}}},
		{"corner in a column", []Point{{4.1, 2}, {4.9, 2}, {4.9, 8}}, []Point{{4.1, 2}, {4.9, 2}, {4.9, 8}}},
		{"six in a column",
			[]Point{{0.5, 0}, {3.0, 5}, {3.2, 1}, {3.4, 7}, {3.5, 9}, {3.6, 4}, {3.9, 6}, {4.5, 2}},
			[]Point{{0.5, 0}, {3.0, 5}, {3.2, 1}, {3.5, 9}, {3.9, 6}, {4.5, 2}}},
		{"extremes at the ends", []Point{{7.0, 1}, {7.2, 3}, {7.4, 4}, {7.6, 2}, {7.8, 9}}, []Point{{7.0, 1}, {7.8, 9}}},
	}
	for _, c := range cases {
		if got := decimate(c.in, nil); !slices.Equal(got, c.out) {
			t.Errorf("%s: decimate = %v, want %v", c.name, got, c.out)
		}
	}
}

// TestDenseStrokeAndMarks: a zigzag of 2,000 points over 200 pixel
// columns (ten a column, the worst case for decimation), stroked
// decimated and marked as one union of discs, paints the pixels the
// undecimated stroke and one disc at a time paint: the same pixels
// painted at least half (an envelope one anti-aliased pixel at most
// off in a few places), and no pixel changed more than union against
// one-by-one blending already changes it (≤ 96 of 255 on an edge).
func TestDenseStrokeAndMarks(t *testing.T) {
	pts := make([]Point, 2000)
	for i := range pts {
		pts[i] = Point{10 + float64(i)/10, 50 + 30*math.Sin(float64(i)*0.7) + 10*math.Sin(float64(i)*0.013)}
	}
	col := color.NRGBA{31, 119, 180, 255}
	l := Line{Color: col, Width: 2.7}
	fast, slow := NewRaster(220, 100, white), NewRaster(220, 100, white)
	fast.Stroke(pts, l)
	Marks(fast, Circle, pts, 3.3, col)
	slow.polys.reset()
	slow.polys.addStroke(pts, l.Width)
	slow.fill(col)
	for _, p := range pts {
		Mark(slow, Circle, p, 3.3, col)
	}
	a, b := fast.Image().Pix, slow.Image().Pix
	painted, flipped, worst := 0, 0, 0
	for i := 0; i < len(a); i += 4 {
		pa, pb := a[i] < 143, b[i] < 143 // red halfway from 255 to 31
		if pb {
			painted++
		}
		if pa != pb {
			flipped++
		}
		for j := i; j < i+4; j++ {
			worst = max(worst, int(a[j])-int(b[j]), int(b[j])-int(a[j]))
		}
	}
	t.Logf("%d of %d painted pixels flipped, worst %d", flipped, painted, worst)
	if painted == 0 || flipped > painted/200 || worst > 96 {
		t.Errorf("%d of %d painted pixels flipped, worst channel off by %d", flipped, painted, worst)
	}
}
