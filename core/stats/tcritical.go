package stats

// tTable95 holds the reference's two-sided 95 % Student-t critical values for
// df = 1…30 (detector §5.8).
var tTable95 = [...]float64{
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
}

// TCritical95 returns the reference's two-sided 95 % Student-t critical value
// for df degrees of freedom (detector §5.8): the 3-decimal table for
// df = 1…30 and the normal value 1.96 for any other df (including df ≤ 0).
func TCritical95(df int) float64 {
	if df >= 1 && df <= len(tTable95) {
		return tTable95[df-1]
	}
	return 1.96
}
