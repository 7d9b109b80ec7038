package canvas

import "math"

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

// strokePolygons turns the polyline pts of width w into polygons whose
// union is the stroke: a rectangle per segment and a disc at each inner
// joint (round joins, butt ends), all wound the same way so the
// rasteriser's clamped coverage merges their overlaps.
func strokePolygons(pts []Point, w float64) [][]Point {
	h := w / 2
	var out [][]Point
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		nx, ny := -dy/n*h, dx/n*h
		out = append(out, orient([]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}}))
		if i < len(pts)-1 && w > 1 {
			out = append(out, disc(b, h))
		}
	}
	return out
}

// disc is a polygon approximating the circle of radius r about c, wound
// like orient's output.
func disc(c Point, r float64) []Point {
	n := max(8, int(r*2))
	pts := make([]Point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = Point{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return pts
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
