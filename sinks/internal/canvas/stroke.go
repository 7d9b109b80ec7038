package canvas

import (
	"math"
	"slices"
)

// dash splits the polyline pts into its "on" pieces by the pattern
// (on, off, on, …, lengths along the line); no pattern leaves it whole.
func dash(pts []Point, pattern []float64) [][]Point {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if len(pts) < 2 || total <= 0 {
		return [][]Point{pts}
	}
	var out [][]Point
	k, left, on := 0, pattern[0], true
	cur := []Point{pts[0]}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := math.Hypot(b.X-a.X, b.Y-a.Y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := Point{a.X + (b.X-a.X)*pos/seg, a.Y + (b.Y-a.Y)*pos/seg}
			if on {
				out = append(out, append(cur, p))
			}
			cur = []Point{p}
			on = !on
			k = (k + 1) % len(pattern)
			left = pattern[k]
		}
		left -= seg - pos
		cur = append(cur, b)
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// polys is a list of polygons stored flat (polygon i is
// pts[ends[i-1]:ends[i]]), kept by a Raster and reused by every draw, so
// a stroke of 10,000 segments is one slice of points, not 20,000 small
// allocations.
type polys struct {
	pts  []Point
	ends []int
	// circle is unitCircle(len(circle)), the last one addDisc used:
	// the plots' discs come in one or two sizes.
	circle []Point
}

func (ps *polys) reset() { ps.pts, ps.ends = ps.pts[:0], ps.ends[:0] }

// grow makes room for n more polygons of k points each, so a series
// of 10,000 discs is one allocation, not a doubling slice.
func (ps *polys) grow(n, k int) {
	ps.pts = slices.Grow(ps.pts, n*k)
	ps.ends = slices.Grow(ps.ends, n)
}

// add appends the polygon q.
func (ps *polys) add(q ...Point) {
	ps.pts = append(ps.pts, q...)
	ps.ends = append(ps.ends, len(ps.pts))
}

// at is polygon i.
func (ps *polys) at(i int) []Point {
	lo := 0
	if i > 0 {
		lo = ps.ends[i-1]
	}
	return ps.pts[lo:ps.ends[i]]
}

// addStroke appends polygons whose union is the stroke of the polyline
// pts of width w: a rectangle per segment and a disc at each inner joint
// (round joins, butt ends), all wound the same way (positive signed
// area, see orient) so the rasteriser's clamped coverage merges their
// overlaps.
func (ps *polys) addStroke(pts []Point, w float64) {
	h := w / 2
	if n := len(pts); n > 2 {
		ps.pts = slices.Grow(ps.pts, 4*(n-1)+discSides(h)*(n-2))
		ps.ends = slices.Grow(ps.ends, 2*n)
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		// The rectangle a+n, b+n, b−n, a−n has a negative signed area
		// (−4·|ab|·h), so it goes in reverse.
		nx, ny := -dy/n*h, dx/n*h
		ps.add(Point{a.X - nx, a.Y - ny}, Point{b.X - nx, b.Y - ny}, Point{b.X + nx, b.Y + ny}, Point{a.X + nx, a.Y + ny})
		if i < len(pts)-1 && w > 1 {
			ps.addDisc(b, h)
		}
	}
}

// addDisc appends disc(c, r) without allocating.
func (ps *polys) addDisc(c Point, r float64) {
	if n := discSides(r); len(ps.circle) != n {
		ps.circle = unitCircle(n)
	}
	for _, u := range ps.circle {
		ps.pts = append(ps.pts, Point{c.X + r*u.X, c.Y + r*u.Y})
	}
	ps.ends = append(ps.ends, len(ps.pts))
}

// decimate appends to out the polyline pts with each run of consecutive
// points in the same pixel column (same ⌊x⌋), if longer than four, cut
// to its first, highest, lowest and last points, in their order: the
// standard line-plot decimation. The path through the kept points spans the same rows in
// that column and enters and leaves it at the same points, so the
// stroke covers the same pixels up to anti-aliasing, while a series of
// 10,000 points over 1,100 columns costs the rasteriser 1,100 columns'
// worth of edges. A polyline with no two consecutive points in one
// column comes back unchanged.
func decimate(pts []Point, out []Point) []Point {
	for lo := 0; lo < len(pts); {
		col := math.Floor(pts[lo].X)
		hi, top, bot := lo+1, lo, lo
		for ; hi < len(pts) && math.Floor(pts[hi].X) == col; hi++ {
			if pts[hi].Y < pts[top].Y {
				top = hi
			}
			if pts[hi].Y > pts[bot].Y {
				bot = hi
			}
		}
		if hi-lo <= 4 {
			// Nothing to gain, and a corner of a thin outline (a dash
			// turning in one column) would be cut short.
			out = append(out, pts[lo:hi]...)
			lo = hi
			continue
		}
		keep := [4]int{lo, min(top, bot), max(top, bot), hi - 1}
		prev := -1
		for _, k := range keep {
			if k != prev {
				out = append(out, pts[k])
				prev = k
			}
		}
		lo = hi
	}
	return out
}

// disc is a polygon approximating the circle of radius r about c, wound
// like orient's output.
func disc(c Point, r float64) []Point {
	us := unitCircle(discSides(r))
	pts := make([]Point, len(us))
	for i, u := range us {
		pts[i] = Point{c.X + r*u.X, c.Y + r*u.Y}
	}
	return pts
}

// discSides is the number of sides of a disc of radius r.
func discSides(r float64) int { return max(8, int(r*2)) }

// unitCircle is the n points (cos a, sin a) at a = 2πi/n.
func unitCircle(n int) []Point {
	us := make([]Point, n)
	for i := range us {
		a := 2 * math.Pi * float64(i) / float64(n)
		us[i] = Point{math.Cos(a), math.Sin(a)}
	}
	return us
}

// orient returns pts wound with a positive signed area (screen
// clockwise), reversing them if needed.
func orient(pts []Point) []Point {
	a := 0.0
	for i := range pts {
		p, q := pts[i], pts[(i+1)%len(pts)]
		a += p.X*q.Y - q.X*p.Y
	}
	if a < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	return pts
}

// clipPolygon is the part of polygon pts inside r (Sutherland–Hodgman,
// one edge of r at a time).
func clipPolygon(pts []Point, r Rect) []Point {
	edges := []struct {
		inside func(Point) bool
		cross  func(a, b Point) Point
	}{
		{func(p Point) bool { return p.X >= r.Min.X }, func(a, b Point) Point { return atX(a, b, r.Min.X) }},
		{func(p Point) bool { return p.X <= r.Max.X }, func(a, b Point) Point { return atX(a, b, r.Max.X) }},
		{func(p Point) bool { return p.Y >= r.Min.Y }, func(a, b Point) Point { return atY(a, b, r.Min.Y) }},
		{func(p Point) bool { return p.Y <= r.Max.Y }, func(a, b Point) Point { return atY(a, b, r.Max.Y) }},
	}
	for _, e := range edges {
		if len(pts) == 0 {
			return nil
		}
		in := pts
		pts = nil
		prev := in[len(in)-1]
		for _, p := range in {
			switch {
			case e.inside(p) && e.inside(prev):
				pts = append(pts, p)
			case e.inside(p):
				pts = append(pts, e.cross(prev, p), p)
			case e.inside(prev):
				pts = append(pts, e.cross(prev, p))
			}
			prev = p
		}
	}
	return pts
}

func atX(a, b Point, x float64) Point {
	return Point{x, a.Y + (b.Y-a.Y)*(x-a.X)/(b.X-a.X)}
}

func atY(a, b Point, y float64) Point {
	return Point{a.X + (b.X-a.X)*(y-a.Y)/(b.Y-a.Y), y}
}
