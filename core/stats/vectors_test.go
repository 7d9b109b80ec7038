package stats

import (
	"math"
	"path/filepath"
	"slices"
	"testing"
)

// TestStatsVectors walks every case × key of the reference vectors
// (../shared/vectors/stats.json: pymannkendall HEAD and v1.4.3, R modifiedmk
// and trend, pyhomogeneity, statsmodels 0.13.5, kim-convergence, pysimoa)
// with the tolerances of vectors/README.md. The subset copied into testdata
// always runs; the full file runs when ../shared is present.
func TestStatsVectors(t *testing.T) {
	t.Run("testdata", func(t *testing.T) {
		runStatsVectors(t, filepath.Join("testdata", "stats_subset.json"))
	})
	t.Run("shared", func(t *testing.T) {
		runStatsVectors(t, requireShared(t, filepath.Join("vectors", "stats.json")))
	})
}

func runStatsVectors(t *testing.T, path string) {
	doc := loadJSON(t, path)
	cases, _ := doc["cases"].([]any)
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	total := 0
	for _, cv := range cases {
		cs := cv.(map[string]any)
		name := cs["name"].(string)
		t.Run(name, func(t *testing.T) {
			c := &checker{t: t}
			x := floats(t, cs["x"])
			if n := int(mustNum(t, cs, "n")); n != len(x) {
				t.Fatalf("n = %d but len(x) = %d", n, len(x))
			}
			for key, check := range vectorChecks {
				v, ok := cs[key]
				if !ok {
					continue
				}
				c.prefix = key + "."
				check(c, x, v)
			}
			total += c.n
		})
	}
	t.Logf("%s: %d cases, %d checks", path, len(cases), total)
}

// vectorChecks maps each per-case key of stats.json to its check.
var vectorChecks = map[string]func(c *checker, x []float64, v any){
	"mk_original": func(c *checker, x []float64, v any) {
		checkMK(c, MannKendall(x), v.(map[string]any), true)
	},
	"hamed_rao_head_abs": func(c *checker, x []float64, v any) {
		checkMK(c, HamedRaoHead(x, 0), v.(map[string]any), true)
	},
	"hamed_rao_head_abs_lag3": func(c *checker, x []float64, v any) {
		checkMK(c, HamedRaoHead(x, 3), v.(map[string]any), true)
	},
	"hamed_rao_v143_signed": func(c *checker, x []float64, v any) {
		checkMK(c, HamedRaoV143(x), v.(map[string]any), true)
	},
	"hamed_rao_signed_guarded_own": func(c *checker, x []float64, v any) {
		checkMK(c, HamedRaoSignedGuarded(x), v.(map[string]any), false)
	},
	"hamed_rao_internals": checkHRInternals,
	"sens_slope": func(c *checker, x []float64, v any) {
		m := v.(map[string]any)
		s := SensSlope(x)
		c.float("slope", s, mustNum(c.t, m, "slope"), tolRel, tolAbs)
		c.float("intercept", SensIntercept(x, s), mustNum(c.t, m, "intercept"), tolRel, tolAbs)
	},
	"pettitt":        checkPettitt,
	"ols":            checkOLS,
	"newey_west":     checkNeweyWest,
	"mser":           checkMSER,
	"batch_means_ci": checkBatchMeans,
	"cv":             checkCV,
}

// checkMK compares a Mann–Kendall result with a pymannkendall-style record.
// Z/P are compared only where the record has them; P against p_sf.
func checkMK(c *checker, r MannKendallResult, m map[string]any, full bool) {
	if s, ok := num(m, "s"); ok {
		c.int("s", r.S, int(s))
	}
	if want, ok := num(m, "var_s"); ok {
		c.float("var_s", r.VarS, want, tolRel, tolAbs)
	}
	if want, ok := num(m, "z"); ok {
		c.float("z", r.Z, want, tolRel, tolAbs)
	}
	if want, ok := num(m, "p_sf"); ok {
		c.float("p_sf", r.P, want, tolRelP, 0)
	}
	if want, ok := num(m, "n_ns"); ok {
		c.float("n_ns", r.Correction, want, tolRel, tolAbs)
	}
	if !full {
		return
	}
	if want, ok := num(m, "tau"); ok {
		c.float("tau", r.Tau, want, tolRel, tolAbs)
	}
	if want, ok := num(m, "p"); ok && !math.IsNaN(want) {
		// pymannkendall's own 2·(1 − Φ(|z|)): compare the reference form
		// absolutely (it cancels to 0 in the far tail).
		c.float("p(reference form)", normalTwoSidedPRef(r.Z), want, 0, 1e-14)
	}
	if h, ok := m["h"].(bool); ok {
		// pymannkendall: h = |z| > Φ⁻¹(1 − α/2).
		c.bool("h", math.Abs(r.Z) > z975, h)
		trend := "no trend"
		if h && r.Z > 0 {
			trend = "increasing"
		} else if h && r.Z < 0 {
			trend = "decreasing"
		}
		c.str("trend", trend, m["trend"].(string))
	}
}

func checkHRInternals(c *checker, x []float64, v any) {
	m := v.(map[string]any)
	in := hamedRaoInternals(x, 0)
	n := len(x)
	c.int("lag_max", n-1, int(mustNum(c.t, m, "lag_max")))
	c.bool("rank_variance_zero", in.zeroVar, m["rank_variance_zero"].(bool))
	c.float("bound", in.bound, mustNum(c.t, m, "bound"), tolRel, 0)
	c.float("sen_slope", in.slope, mustNum(c.t, m, "sen_slope"), tolRel, tolAbs)
	lags := floats(c.t, m["significant_lags"])
	got := make([]float64, len(in.lags))
	for i, l := range in.lags {
		got[i] = float64(l)
	}
	c.n++
	if !slices.Equal(got, lags) {
		c.fail("significant_lags", got, lags)
	}
	rho := floats(c.t, m["significant_rho"])
	if len(rho) == len(in.rho) {
		for i := range rho {
			c.float("significant_rho", in.rho[i], rho[i], tolRel, tolAbs)
		}
	}
	c.float("sni", in.sni, mustNum(c.t, m, "sni"), tolRel, 1e-9)
	c.float("n_ns_abs", HamedRaoHead(x, 0).Correction, mustNum(c.t, m, "n_ns_abs"), tolRel, tolAbs)
	c.float("n_ns_signed", HamedRaoSignedGuarded(x).Correction, mustNum(c.t, m, "n_ns_signed"), tolRel, tolAbs)
}

func checkPettitt(c *checker, x []float64, v any) {
	m := v.(map[string]any)
	r := Pettitt(x, 0.05)
	k := mustNum(c.t, m, "K")
	c.exact("K", r.K, k)
	cp := int(mustNum(c.t, m, "cp_1based_last_of_first_segment"))
	c.int("cp_0based_first_of_second_segment", cp, int(mustNum(c.t, m, "cp_0based_first_of_second_segment")))
	if k == 0 {
		// Every U_t is 0: the reference detector reports change point 0
		// (detector §10.5); pyhomogeneity's argmax reports 1.
		c.int("change_point(K=0, reference convention)", r.ChangePoint, 0)
	} else {
		c.int("cp_1based_last_of_first_segment", r.ChangePoint, cp)
		all := floats(c.t, m["all_argmax_1based"])
		c.float("first of all_argmax_1based", float64(r.ChangePoint), all[0], 0, 0)
		c.float("mean_before", Mean(x[:r.ChangePoint]), mustNum(c.t, m, "mean_before"), tolRel, tolAbs)
		c.float("mean_after", Mean(x[r.ChangePoint:]), mustNum(c.t, m, "mean_after"), tolRel, tolAbs)
	}
	c.float("p_capped", r.P, mustNum(c.t, m, "p_capped"), tolRelP, 0)
	c.bool("h_alpha_0.05", r.Significant, m["h_alpha_0.05"].(bool))
	if uk, ok := m["U_k_1based"]; ok {
		want := floats(c.t, uk)
		got := pettittU(x)
		c.int("len(U_k_1based)", len(got)+1, len(want))
		for i := range got {
			c.exact("U_k_1based", got[i], want[i])
		}
		c.exact("U_n", 0, want[len(want)-1])
	}
}

func checkOLS(c *checker, x []float64, v any) {
	m := v.(map[string]any)
	r := OLS(x)
	deg := m["exact_fit_degenerate"].(bool)
	c.bool("exact_fit_degenerate", r.Degenerate, deg)
	c.float("slope", r.Slope, mustNum(c.t, m, "slope"), tolRel, tolAbs)
	c.float("intercept", r.Intercept, mustNum(c.t, m, "intercept"), tolRel, 1e-12*math.Abs(r.YBar))
	c.int("df_resid", r.N-2, int(mustNum(c.t, m, "df_resid")))
	if deg {
		// Go behaviour for an exact fit: the residuals vanish (exactly here)
		// and SE is 0; the vectors hold null.
		c.float("residual sum of squares (exact fit)", r.RSS, 0, 0, 1e-20*r.TSS+tolAbs)
		return
	}
	c.float("se_slope", r.SE, mustNum(c.t, m, "se_slope"), tolRel, tolAbs)
	c.float("t_slope", r.T, mustNum(c.t, m, "t_slope"), tolRel, tolAbs)
	c.float("p_slope_t", r.P, mustNum(c.t, m, "p_slope_t"), tolRelP, 0)
	c.float("resid_std", math.Sqrt(r.RSS/float64(r.N-2)), mustNum(c.t, m, "resid_std"), tolRel, tolAbs)
	c.float("rsquared", 1-r.RSS/r.TSS, mustNum(c.t, m, "rsquared"), tolRel, tolAbs)
}

func checkNeweyWest(c *checker, x []float64, v any) {
	for _, e := range v.([]any) {
		m := e.(map[string]any)
		lags := -1
		if a, ok := num(m, "maxlags_arg"); ok && !math.IsNaN(a) {
			lags = int(a)
		}
		r := NeweyWest(x, lags)
		c.int("lag_used", r.Lags, int(mustNum(c.t, m, "lag_used")))
		c.float("slope", r.Slope, mustNum(c.t, m, "slope"), tolRel, tolAbs)
		deg := m["exact_fit_degenerate"].(bool)
		c.bool("exact_fit_degenerate", r.Degenerate, deg)
		if deg {
			// Exact fit: residuals vanish, SE is 0, so the reference's
			// verdict is the slope's direction.
			c.exact("se_slope (exact fit)", r.SE, 0)
			continue
		}
		c.float("se_slope", r.SE, mustNum(c.t, m, "se_slope"), tolRel, tolAbs)
		c.float("t_slope", r.T, mustNum(c.t, m, "t_slope"), tolRel, tolAbs)
		c.float("p_slope_normal", r.P, mustNum(c.t, m, "p_slope_normal"), tolRelP, 0)
		n := float64(r.N)
		c.float("se_slope_small_sample_corrected", r.SE*math.Sqrt(n/(n-2)),
			mustNum(c.t, m, "se_slope_small_sample_corrected"), tolRel, tolAbs)
		c.float("p_slope_t_df_n_minus_2", studentTwoSidedP(r.T, n-2),
			mustNum(c.t, m, "p_slope_t_df_n_minus_2"), tolRelP, 0)
	}
}

func checkMSER(c *checker, x []float64, v any) {
	for _, key := range []string{"m1", "m5"} {
		m := obj(v.(map[string]any), key)
		if m == nil {
			continue
		}
		batch := int(mustNum(c.t, m, "batch_size"))
		curve, argmin := MSER(x, batch)
		want := floats(c.t, m["curve"])
		c.int(key+".n_batches", len(curve), int(mustNum(c.t, m, "n_batches")))
		if len(curve) != len(want) {
			continue
		}
		for d := range want {
			c.float(key+".curve", curve[d], want[d], tolRel, tolAbs)
		}
		if mustNum(c.t, m, "argmin_first_half_rel_margin") > 1e-9 {
			c.int(key+".argmin_d_restricted_to_first_half", argmin,
				int(mustNum(c.t, m, "argmin_d_restricted_to_first_half")))
		}
		k := len(curve)
		ignore := int(mustNum(c.t, m, "kim_ignore_end_batches"))
		c.int(key+".kim_ignore_end_batches", max(1, min(batch, k/4)), ignore)
		if mustNum(c.t, m, "argmin_rel_margin") > 1e-9 {
			c.int(key+".argmin_d_excluding_last_ignore_end", MSERArgmin(curve, k-1-ignore),
				int(mustNum(c.t, m, "argmin_d_excluding_last_ignore_end")))
			kim := obj(m, "kim_mser_m")
			tr, idx := MSERKim(x, batch)
			c.bool(key+".kim_mser_m.truncated", tr, kim["truncated"].(bool))
			c.int(key+".kim_mser_m.truncate_index", idx, int(mustNum(c.t, kim, "truncate_index")))
		}
		if ps := obj(m, "pysimoa_mser5"); ps != nil && mustNum(c.t, m, "argmin_rel_margin") > 1e-9 {
			rng := floats(c.t, ps["candidate_d_range"])
			d := MSERArgmin(curve, int(rng[1]))
			c.int(key+".pysimoa_mser5.d_star_batches", d, int(mustNum(c.t, ps, "d_star_batches")))
			c.bool(key+".pysimoa_mser5.insufficient", d >= k/2, ps["insufficient"].(bool))
		}
	}
}

func checkBatchMeans(c *checker, x []float64, v any) {
	for _, e := range v.([]any) {
		m := e.(map[string]any)
		k := int(mustNum(c.t, m, "k"))
		head := m["drop_remainder_at"].(string) == "head"
		b := BatchMeans(x, k, head)
		c.int("m", len(x)/k, int(mustNum(c.t, m, "m")))
		c.float("grand_mean", Mean(b), mustNum(c.t, m, "grand_mean"), tolRel, tolAbs)
		c.float("s_batch_ddof1", Stdev(b), mustNum(c.t, m, "s_batch_ddof1"), tolRel, tolAbs)
		se := Stdev(b) / math.Sqrt(float64(k))
		c.float("se_mean", se, mustNum(c.t, m, "se_mean"), tolRel, tolAbs)
		// The reference's CI uses the 3-decimal t table (detector §5.8), not
		// scipy's t quantile: the table agrees to its 3 decimals and the
		// half-width is the table value times se.
		tq := mustNum(c.t, m, "t_0975")
		c.float("t_0975 (3-decimal table)", TCritical95(k-1), tq, 0, 5e-4)
		lo, hi := BatchMeansCI(b)
		c.float("half_width (table t)", (hi-lo)/2, TCritical95(k-1)*se, 1e-12, tolAbs)
		c.float("half_width_95 (scipy t)", (hi-lo)/2*tq/TCritical95(k-1),
			mustNum(c.t, m, "half_width_95"), 1e-12, tolAbs)
	}
}

func checkCV(c *checker, x []float64, v any) {
	m := v.(map[string]any)
	c.float("mean", Mean(x), mustNum(c.t, m, "mean"), tolRel, tolAbs)
	c.float("std_ddof0", PStdev(x), mustNum(c.t, m, "std_ddof0"), tolRel, tolAbs)
	c.float("std_ddof1", Stdev(x), mustNum(c.t, m, "std_ddof1"), tolRel, tolAbs)
	c.float("cv_ddof0", CoV(x), mustNum(c.t, m, "cv_ddof0"), tolRel, tolAbs)
	c.float("cv_ddof1", Stdev(x)/math.Abs(Mean(x)), mustNum(c.t, m, "cv_ddof1"), tolRel, tolAbs)
}
