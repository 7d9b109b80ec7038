// Package calibration renders a calibration (sweep/calibrate's scoring
// of a sweep's parameter sets against planted truth): the record
// (Report, ConfigScore, ClassScore, RowError — plain structs the scoring
// fills) and its outputs: the Markdown report, the terminal table, the
// PNG of error against each swept parameter, calibration.parquet and the
// HTML page. The metrics and the ranking are defined in sweep/calibrate's
// package doc.
package calibration
