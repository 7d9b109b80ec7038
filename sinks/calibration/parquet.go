package calibration

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// metricColumn is one numeric column of calibration.parquet.
type metricColumn struct {
	name string
	// i is set for integer columns, f for float columns (NaN → null).
	i func(c *ConfigScore) int
	f func(c *ConfigScore) float64
}

// metricColumns follow the parameter columns, in ConfigScore order.
var metricColumns = []metricColumn{
	{name: "rank", i: func(c *ConfigScore) int { return c.Rank }},
	{name: "rows", i: func(c *ConfigScore) int { return c.Rows }},
	{name: "error_rows", i: func(c *ConfigScore) int { return c.Errors }},
	{name: "no_truth_rows", i: func(c *ConfigScore) int { return c.NoTruth }},
	{name: "scored", i: func(c *ConfigScore) int { return c.Scored }},
	{name: "agree", i: func(c *ConfigScore) int { return c.Agree }},
	{name: "agree_rate", f: func(c *ConfigScore) float64 { return c.AgreeRate }},
	{name: "eligible", i: func(c *ConfigScore) int { return c.Eligible }},
	{name: "found_eligible", i: func(c *ConfigScore) int { return c.FoundEligible }},
	{name: "found_rate", f: func(c *ConfigScore) float64 { return c.FoundRate }},
	{name: "plateau_runs", i: func(c *ConfigScore) int { return c.PlateauRuns }},
	{name: "found_plateau", i: func(c *ConfigScore) int { return c.FoundPlateau }},
	{name: "plateau_found_rate", f: func(c *ConfigScore) float64 { return c.PlateauFoundRate }},
	{name: "found", i: func(c *ConfigScore) int { return c.Found }},
	{name: "tpot_err_n", i: func(c *ConfigScore) int { return c.ErrN }},
	{name: "tpot_err_p50", f: func(c *ConfigScore) float64 { return c.ErrMedian }},
	{name: "tpot_err_p95", f: func(c *ConfigScore) float64 { return c.ErrP95 }},
	{name: "plateau_tpot_err_n", i: func(c *ConfigScore) int { return c.PlateauErrN }},
	{name: "plateau_tpot_err_p50", f: func(c *ConfigScore) float64 { return c.PlateauErrMedian }},
	{name: "plateau_tpot_err_p95", f: func(c *ConfigScore) float64 { return c.PlateauErrP95 }},
	{name: "confident_wrong", i: func(c *ConfigScore) int { return c.ConfidentWrong }},
	{name: "false_found", i: func(c *ConfigScore) int { return c.FalseFound }},
	{name: "confident_wrong_rate", f: func(c *ConfigScore) float64 { return c.ConfidentWrongRate }},
	{name: "start_err_n", i: func(c *ConfigScore) int { return c.StartN }},
	{name: "start_err_p50", f: func(c *ConfigScore) float64 { return c.StartErrMedian }},
	{name: "start_abs_err_p50", f: func(c *ConfigScore) float64 { return c.StartAbsErrMedian }},
}

// CalibrationSchema is the schema of calibration.parquet: one row
// per config — config_id, label, recommended, every parameter typed as in
// the rows (sinks.ParamFields, core.Names() order), the metrics
// (metricColumns; rates are fractions, NaN is null), and the confusion
// matrix as JSON {truth: {row label: n}} holding the non-zero cells.
func CalibrationSchema() *batch.Schema {
	fields := []batch.Field{
		{Name: "config_id", Type: batch.String},
		{Name: "label", Type: batch.String},
		{Name: "recommended", Type: batch.Bool},
	}
	fields = append(fields, sinks.ParamFields()...)
	for _, m := range metricColumns {
		t := batch.Float64
		if m.i != nil {
			t = batch.Int64
		}
		fields = append(fields, batch.Field{Name: m.name, Type: t, Nullable: m.f != nil})
	}
	fields = append(fields, batch.Field{Name: "confusion", Type: batch.String})
	return batch.NewSchema(fields, nil)
}

// WriteParquet writes calibration.parquet (CalibrationSchema) to path.
func (r *Report) WriteParquet(path string) error {
	rec := batch.New(CalibrationSchema())
	nParams := len(core.Names())
	for i := range r.Configs {
		c := &r.Configs[i]
		col := 0
		str := func(s string) { rec.Column(col).AppendString(s); col++ }
		str(c.ConfigID)
		str(c.Label)
		rec.Column(col).AppendBool(c.ConfigID == r.Recommended)
		col++
		p, err := paramsOf(c.Params)
		if err != nil {
			return fmt.Errorf("calibration.parquet: config %s: %w", c.ConfigID, err)
		}
		sinks.AppendParams(rec.Columns()[col:col+nParams], p)
		col += nParams
		for _, m := range metricColumns {
			if m.i != nil {
				rec.Column(col).AppendInt64(int64(m.i(c)))
			} else if x := m.f(c); math.IsNaN(x) || math.IsInf(x, 0) {
				rec.Column(col).AppendNull()
			} else {
				rec.Column(col).AppendFloat64(x)
			}
			col++
		}
		conf, err := confusionJSON(c)
		if err != nil {
			return fmt.Errorf("calibration.parquet: config %s: %w", c.ConfigID, err)
		}
		str(conf)
	}
	props := &parquetio.Options{Compression: parquetio.Snappy}
	err := WriteFile(path, func(w io.Writer) error { return parquetio.WriteRecord(w, rec, props) })
	if err != nil {
		return fmt.Errorf("calibration.parquet: %w", err)
	}
	return nil
}

// paramsOf is the parameter set whose text (core.Params.Get, as the rows
// hold it) is params; a parameter the rows lack (written before it
// existed) keeps its default.
func paramsOf(params map[string]string) (core.Params, error) {
	p := core.DefaultParams()
	for _, n := range core.Names() {
		if v, ok := params[n]; ok {
			if err := p.Set(n, v); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// confusionJSON is c's confusion matrix as {truth: {row label: n}},
// non-zero cells only (keys sorted by encoding/json).
func confusionJSON(c *ConfigScore) (string, error) {
	m := map[string]map[string]int{}
	for i, t := range TruthLabels {
		for j, p := range PredLabels {
			if n := c.Confusion[i][j]; n > 0 {
				if m[t] == nil {
					m[t] = map[string]int{}
				}
				m[t][p] = n
			}
		}
	}
	b, err := json.Marshal(m)
	return string(b), err
}
