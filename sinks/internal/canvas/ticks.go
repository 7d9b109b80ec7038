package canvas

import (
	"math"
	"strconv"
)

// Tick is a mark on an axis at Value, labelled (a major tick) or not
// (Label "", a minor tick).
type Tick struct {
	Value float64
	Label string
}

// DefaultTicks are about three labelled ticks within [lo, hi] and
// minor ticks between them: gonum/plot's DefaultTicks (v0.17.0,
// BSD-3-Clause), ported so the plots keep their axes; the labelled
// values are chosen by Talbot, Lin and Hanrahan's extended Wilkinson
// algorithm (talbotLinHanrahan). It requires lo < hi.
func DefaultTicks(lo, hi float64) []Tick {
	if !(lo < hi) {
		return nil
	}
	const suggestedTicks = 3
	labels, step, q, mag := talbotLinHanrahan(lo, hi, suggestedTicks)
	majorDelta := step * math.Pow10(mag)
	if q == 0 {
		// The simple fall back was chosen: majorDelta is the distance
		// between labels.
		majorDelta = labels[1] - labels[0]
	}
	fc := byte('f')
	var off int
	if mag < -1 || 6 < mag {
		off = 1
		fc = 'g'
	}
	if math.Trunc(q) != q {
		off += 2
	}
	prec := min(6, max(off, -mag))
	ticks := make([]Tick, len(labels))
	for i, v := range labels {
		ticks[i] = Tick{Value: v, Label: strconv.FormatFloat(v, fc, prec, 64)}
	}
	var minorDelta float64
	switch step {
	case 1, 2.5:
		minorDelta = majorDelta / 5
	case 2, 3, 4, 5:
		minorDelta = majorDelta / step
	default:
		if majorDelta/2 < dlamchP {
			return ticks
		}
		minorDelta = majorDelta / 2
	}
	// The first minor tick not above lo, then one every minorDelta not
	// within minorDelta/2 of a labelled tick.
	var i float64
	for labels[0]+(i-1)*minorDelta > lo {
		i--
	}
	for {
		val := labels[0] + i*minorDelta
		if val > hi {
			break
		}
		found := false
		for _, t := range ticks {
			if math.Abs(t.Value-val) < minorDelta/2 {
				found = true
			}
		}
		if !found {
			ticks = append(ticks, Tick{Value: val})
		}
		i++
	}
	return ticks
}

// dlamchP is LAPACK's machine precision (base × epsilon).
const dlamchP = 2.0 / (1 << 53)

// talbotLinHanrahan returns want-ish labelled values within [dMin,
// dMax] (Talbot, Lin, Hanrahan, "An Extension of Wilkinson's Algorithm
// for Positioning Tick Labels on Axes", InfoVis 2010), with the step
// (a multiple of q), q from the nice numbers Q, and the step's decimal
// magnitude; q is 0 when the range is too narrow and the labels are
// spread evenly. Weights: simplicity 0.25, coverage 0.2, density 0.5,
// legibility 0.05 (constant legibility), as gonum/plot's.
func talbotLinHanrahan(dMin, dMax float64, want int) (values []float64, step, q float64, magnitude int) {
	const eps = dlamchP * 100
	Q := []float64{1, 5, 2, 2.5, 4, 3}
	score := func(s, c, d, l float64) float64 { return 0.25*s + 0.2*c + 0.5*d + 0.05*l }
	even := func() ([]float64, float64, float64, int) {
		l := make([]float64, want)
		step := (dMax - dMin) / float64(want-1)
		for i := range l {
			l[i] = dMin + float64(i)*step
		}
		return l, step, 0, minAbsMag(dMin, dMax)
	}
	if dMax-dMin < eps {
		return even()
	}
	type selection struct {
		n               int
		lMin, lStep, lq float64
		score           float64
		magnitude       int
	}
	best := selection{score: -2}
outer:
	for skip := 1; ; skip++ {
		for _, q := range Q {
			sm := maxSimplicity(q, Q, skip)
			if score(sm, 1, 1, 1) < best.score {
				break outer
			}
			for have := 2; ; have++ {
				dm := maxDensity(have, want)
				if score(sm, 1, dm, 1) < best.score {
					break
				}
				delta := (dMax - dMin) / float64(have+1) / float64(skip) / q
				const maxExp = 309
				for mag := int(math.Ceil(math.Log10(delta))); mag < maxExp; mag++ {
					step := float64(skip) * q * math.Pow10(mag)
					cm := maxCoverage(dMin, dMax, step*float64(have-1))
					if score(sm, cm, dm, 1) < best.score {
						break
					}
					fracStep := step / float64(skip)
					kStep := step * float64(have-1)
					minStart := (math.Floor(dMax/step) - float64(have-1)) * float64(skip)
					maxStart := math.Ceil(dMax/step) * float64(skip)
					for start := minStart; start <= maxStart && start != start-1; start++ {
						lMin := start * fracStep
						lMax := lMin + kStep
						if lMin < dMin || dMax < lMax { // labels within the data
							continue
						}
						s := score(simplicity(q, Q, skip, lMin, lMax, step), coverage(dMin, dMax, lMin, lMax),
							density(have, want, dMin, dMax, lMin, lMax), 1)
						if s > best.score {
							best = selection{n: have, lMin: lMin, lStep: float64(skip) * q, lq: q, score: s, magnitude: mag}
						}
					}
				}
			}
		}
	}
	if best.score == -2 {
		return even()
	}
	l := make([]float64, best.n)
	step = best.lStep * math.Pow10(best.magnitude)
	for i := range l {
		l[i] = best.lMin + float64(i)*step
	}
	return l, best.lStep, best.lq, best.magnitude
}

func minAbsMag(a, b float64) int {
	return int(math.Min(math.Floor(math.Log10(math.Abs(a))), math.Floor(math.Log10(math.Abs(b)))))
}

func simplicity(q float64, Q []float64, skip int, lMin, lMax, lStep float64) float64 {
	const eps = dlamchP * 100
	for i, v := range Q {
		if v == q {
			m := math.Mod(lMin, lStep)
			v = 0
			if (m < eps || lStep-m < eps) && lMin <= 0 && 0 <= lMax {
				v = 1
			}
			return 1 - float64(i)/(float64(len(Q))-1) - float64(skip) + v
		}
	}
	panic("canvas: q not in Q")
}

func maxSimplicity(q float64, Q []float64, skip int) float64 {
	for i, v := range Q {
		if v == q {
			return 1 - float64(i)/(float64(len(Q))-1) - float64(skip) + 1
		}
	}
	panic("canvas: q not in Q")
}

func coverage(dMin, dMax, lMin, lMax float64) float64 {
	r := 0.1 * (dMax - dMin)
	hi := dMax - lMax
	lo := dMin - lMin
	return 1 - 0.5*(hi*hi+lo*lo)/(r*r)
}

func maxCoverage(dMin, dMax, span float64) float64 {
	r := dMax - dMin
	if span <= r {
		return 1
	}
	h := 0.5 * (span - r)
	r *= 0.1
	return 1 - (h*h)/(r*r)
}

func density(have, want int, dMin, dMax, lMin, lMax float64) float64 {
	rho := float64(have-1) / (lMax - lMin)
	rhot := float64(want-1) / (math.Max(lMax, dMax) - math.Min(dMin, lMin))
	if d := rho / rhot; d >= 1 {
		return 2 - d
	}
	return 2 - rhot/rho
}

func maxDensity(have, want int) float64 {
	if have < want {
		return 1
	}
	return 2 - float64(have-1)/float64(want-1)
}
