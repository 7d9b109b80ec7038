package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
)

// The notebook checks read a sweep's Parquet with the engines the README
// points notebooks at, DuckDB (@duckdb/node-api) and Polars
// (nodejs-polars, the same Rust engine as Python's polars), through Node.
// They are optional: install the modules outside the repository and point
// STEADYSWEEP_NODE_MODULES at their node_modules, e.g.
//
//	cd "$(mktemp -d)" && npm install @duckdb/node-api nodejs-polars@0.25.2 nodejs-polars-linux-x64-gnu@0.25.2
//	STEADYSWEEP_NODE_MODULES=$PWD/node_modules go test -run Notebook ./cmd/steadysweep/
//
// Without node or a module the check skips and says so.

// nodeEnv runs Node scripts with the notebook modules on NODE_PATH.
type nodeEnv struct {
	node string
	env  []string
}

// nodeWith returns a Node that can require every module, or skips.
func nodeWith(t *testing.T, modules ...string) nodeEnv {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("notebook check skipped: no node on PATH")
	}
	n := nodeEnv{node: node, env: os.Environ()}
	if dir := os.Getenv("STEADYSWEEP_NODE_MODULES"); dir != "" {
		n.env = append(n.env, "NODE_PATH="+dir)
	}
	for _, m := range modules {
		if _, err := n.run("require(process.argv[1])", "", m); err != nil {
			t.Skipf("notebook check skipped: %s not found (npm install it in a directory outside the repo, "+
				"then STEADYSWEEP_NODE_MODULES=DIR/node_modules): %.300v", m, err)
		}
	}
	return n
}

// run runs script with stdin and args (process.argv[1:]) and returns its
// stdout.
func (n nodeEnv) run(script, stdin string, args ...string) ([]byte, error) {
	cmd := exec.Command(n.node, append([]string{"-e", script}, args...)...)
	cmd.Env, cmd.Stdin = n.env, strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return out, nil
}

// duckdbScript runs the SQL on stdin and prints the rows as JSON (DuckDB's
// JSON form: BIGINT as a decimal string, DOUBLE as a number, NULL null).
const duckdbScript = `
const { DuckDBInstance } = require('@duckdb/node-api');
let sql = '';
process.stdin.on('data', d => sql += d);
process.stdin.on('end', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const r = await c.runAndReadAll(sql);
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()));
});
`

// polarsScript reads the part files of the glob argv[1] with Polars and
// prints {schema, readme, rows}: each column's Polars dtype, the README's
// Polars query (median steady system TPS of the default preset's found
// rows by model and concurrency, in nodejs-polars' spelling of the Python
// snippet), and every row with Int64 columns cast to text (a JS number
// cannot hold every int64).
const polarsScript = `
const pl = require('nodejs-polars');
const rows = pl.scanParquet(process.argv[1]).collectSync();
const schema = {};
for (const [name, dt] of Object.entries(rows.schema)) schema[name] = dt.variant;
const readme = rows.filter(pl.col('preset').eq(pl.lit('default')).and(pl.col('found')))
  .groupBy(['model', 'concurrency']).agg(pl.col('steady_tps_system').median())
  .sort(['model', 'concurrency']);
const exact = rows.columns.map(c => schema[c] === 'Int64' ? pl.col(c).cast(pl.Utf8) : pl.col(c));
const big = (k, v) => typeof v === 'bigint' ? v.toString() : v;
process.stdout.write(JSON.stringify({schema, readme: readme.toRecords(), rows: rows.select(...exact).toRecords()}, big));
`

// notebookCell is one (model, concurrency) of the notebook archive.
type notebookCell struct {
	model string
	conc  int
}

// notebookSweep sweeps, under the default and reference presets, what a
// notebook user's archive holds: synthetic clean runs of two models at
// two concurrencies (one cell with two seeds, every other run with 1 %
// failed requests), a run of too few passes for a window and an AIPerf
// log (wall clock, less than one super-pass). It returns the output
// directory and the archive.
func notebookSweep(t *testing.T) (out, arch string) {
	t.Helper()
	arch = filepath.Join(t.TempDir(), "arch")
	runs := []struct {
		notebookCell
		seed uint64
	}{{notebookCell{"org/model-a", 8}, 1}, {notebookCell{"org/model-a", 16}, 2}, {notebookCell{"org/model-a", 16}, 3},
		{notebookCell{"org/model-b", 8}, 4}, {notebookCell{"org/model-b", 16}, 5}}
	for i, r := range runs {
		presetRun(t, filepath.Join(arch, fmt.Sprintf("run%d", i)), "clean_ramp", r.seed, func(s *synth.Spec) {
			s.Model, s.Concurrency = r.model, r.conc
			s.FailureRate = 0.01 * float64(i%2)
		})
	}
	presetRun(t, filepath.Join(arch, "short"), "insufficient_passes", 6, nil)
	copyRunTo(t, filepath.Join("..", "..", "columnar", "testdata", "aiperf_burst"), filepath.Join(arch, "aiperf_burst"))
	out = t.TempDir()
	if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "-q", "--preset", "default,reference"); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr)
	}
	return out, arch
}

// readmeBlock returns the README's code block of the language whose
// first line starts with first (first == "" takes the block as is) and
// contains must.
func readmeBlock(t *testing.T, lang, first, must string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rest := string(b)
	for {
		var ok bool
		_, rest, ok = strings.Cut(rest, "```"+lang+"\n")
		if !ok {
			t.Fatalf("README has no %s block starting %q holding %q", lang, first, must)
		}
		block, _, _ := strings.Cut(rest, "```")
		if strings.HasPrefix(block, first) && strings.Contains(block, must) {
			return block
		}
	}
}

// TestNotebookReadsRows reads one sweep's rows with arrow-go, DuckDB and
// Polars. Both engines see the columns with the types RowsSchema gives
// (timestamps int64 nanoseconds, never a timestamp type) and every cell
// with the value arrow-go reads, nulls included; the README's DuckDB
// query and its Polars query give the cells computed from the rows in Go;
// every row without steady numbers says why; the AIPerf run's
// run_started_ns is its log's earliest request start, read from the file;
// and the README's Python snippets name only columns the rows have. The
// engines' parts skip without node or the modules.
func TestNotebookReadsRows(t *testing.T) {
	out, arch := notebookSweep(t)
	rows := readParquetRecords(t, partFiles(t, out, "rows")...)
	byKey := map[string]map[string]any{}
	for _, r := range rows {
		byKey[r["run_id"].(string)+"/"+r["config_id"].(string)] = r
	}
	checkRowSemantics(t, rows, arch)
	checkPythonSnippetColumns(t)
	glob := filepath.Join(out, "rows", "*.parquet")

	t.Run("duckdb", func(t *testing.T) {
		n := nodeWith(t, "@duckdb/node-api")
		query := func(sql string) []map[string]any {
			t.Helper()
			got, err := n.run(duckdbScript, sql)
			if err != nil {
				t.Fatalf("DuckDB: %v\n%s", err, sql)
			}
			return decodeJSONRows(t, got)
		}
		for _, table := range []struct {
			name   string
			schema *arrow.Schema
		}{{"rows", arrowbatch.ArrowSchema(sinks.RowsSchema())}, {"series", arrowbatch.ArrowSchema(sinks.SeriesSchema())}} {
			desc := query("DESCRIBE SELECT * FROM read_parquet('" + filepath.Join(out, table.name, "*.parquet") + "')")
			checkEngineTypes(t, "DuckDB "+table.name, table.schema, desc, "column_name", "column_type", duckdbType)
		}
		checkEngineCells(t, "DuckDB", byKey, query("SELECT * FROM read_parquet('"+glob+"')"))
		sql := readmeBlock(t, "sql", "-- duckdb\n", "'out/rows/*.parquet'")
		cells := query(strings.ReplaceAll(sql, "'out/rows/*.parquet'", "'"+glob+"'"))
		checkREADMECells(t, "DuckDB", rows, cells, true)
	})

	t.Run("polars", func(t *testing.T) {
		n := nodeWith(t, "nodejs-polars")
		got, err := n.run(polarsScript, "", glob)
		if err != nil {
			t.Fatalf("Polars: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(got))
		dec.UseNumber()
		var res struct {
			Schema map[string]string
			Readme []map[string]any
			Rows   []map[string]any
		}
		if err := dec.Decode(&res); err != nil {
			t.Fatalf("Polars output %.300q: %v", got, err)
		}
		var desc []map[string]any
		for name, dt := range res.Schema {
			desc = append(desc, map[string]any{"name": name, "type": dt})
		}
		checkEngineTypes(t, "Polars rows", arrowbatch.ArrowSchema(sinks.RowsSchema()), desc, "name", "type", polarsType)
		checkEngineCells(t, "Polars", byKey, res.Rows)
		checkREADMECells(t, "Polars", rows, res.Readme, false)
	})
}

// checkRowSemantics checks, in the rows read with arrow-go, what a
// notebook relies on: a null steady value always comes with a reason
// (and each preset has such a row, or the check is void), a found row
// has its steady numbers, and the AIPerf run (the only one on the wall
// clock) starts at its log's earliest metadata.timestamp_ns while the
// endpoints runs' monotonic clock gives null.
func checkRowSemantics(t *testing.T, rows []map[string]any, arch string) {
	t.Helper()
	start := earliestAIPerfStart(t, filepath.Join(arch, "aiperf_burst", "profile_export.jsonl"))
	nullsWithReason := map[string]int{}
	for _, r := range rows {
		name := fmt.Sprintf("%s %s", r["run_rel"], r["preset"])
		for _, c := range []string{"steady_tps_system", "steady_tps_per_user", "steady_tpot_p50_ns", "steady_ttft_p99_ns"} {
			if r[c] == nil && r["reason"] == "" {
				t.Errorf("%s: %s is null without a reason (status %s)", name, c, r["status"])
			}
			if r[c] == nil && r["found"] == true {
				t.Errorf("%s: found, yet %s is null", name, c)
			}
		}
		if r["steady_tps_system"] == nil && r["reason"] != "" {
			nullsWithReason[r["preset"].(string)]++
		}
		switch rs := r["run_started_ns"]; {
		case r["run_rel"] == "aiperf_burst" && rs != start:
			t.Errorf("%s: run_started_ns %v, the log's earliest metadata.timestamp_ns %d", name, rs, start)
		case r["run_rel"] != "aiperf_burst" && rs != nil:
			t.Errorf("%s: run_started_ns %v on the endpoints client's monotonic clock", name, rs)
		}
	}
	if nullsWithReason["default"] < 2 || nullsWithReason["reference"] < 2 {
		t.Errorf("rows with null steady TPS and a reason per preset: %v; want the short run and the AIPerf run under each", nullsWithReason)
	}
}

// earliestAIPerfStart is the smallest metadata.timestamp_ns of an AIPerf
// profile_export.jsonl, read on its own.
func earliestAIPerfStart(t *testing.T, path string) int64 {
	t.Helper()
	first := int64(math.MaxInt64)
	eachJSONLine(t, path, func(rec struct {
		Metadata struct {
			TimestampNs int64 `json:"timestamp_ns"`
		} `json:"metadata"`
	}) {
		first = min(first, rec.Metadata.TimestampNs)
	})
	if first == math.MaxInt64 || first < 1e18 {
		t.Fatalf("%s: earliest start %d", path, first)
	}
	return first
}

func decodeJSONRows(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		t.Fatalf("engine output %.300q: %v", b, err)
	}
	return rows
}

// engineTypes are the DuckDB and Polars types a Parquet column of each
// Arrow type reads as.
var engineTypes = map[arrow.Type][2]string{
	arrow.STRING:  {"VARCHAR", "String"},
	arrow.INT64:   {"BIGINT", "Int64"},
	arrow.INT32:   {"INTEGER", "Int32"},
	arrow.FLOAT64: {"DOUBLE", "Float64"},
	arrow.BOOL:    {"BOOLEAN", "Bool"},
}

func duckdbType(dt arrow.DataType) string { return engineType(dt, 0) }
func polarsType(dt arrow.DataType) string { return engineType(dt, 1) }

func engineType(dt arrow.DataType, engine int) string {
	if ts, ok := engineTypes[dt.ID()]; ok {
		return ts[engine]
	}
	return "unexpected " + dt.String()
}

// checkEngineTypes checks that an engine sees exactly schema's columns
// with the types engineType maps them to: an int64 nanosecond column that
// became a timestamp, or a double that became a decimal, fails here.
func checkEngineTypes(t *testing.T, engine string, schema *arrow.Schema, desc []map[string]any, nameKey, typeKey string,
	engineType func(arrow.DataType) string) {
	t.Helper()
	got := map[string]string{}
	for _, d := range desc {
		got[fmt.Sprint(d[nameKey])] = fmt.Sprint(d[typeKey])
	}
	if len(got) != schema.NumFields() {
		t.Errorf("%s: %d columns, the schema has %d", engine, len(got), schema.NumFields())
	}
	for _, f := range schema.Fields() {
		if want := engineType(f.Type); got[f.Name] != want {
			t.Errorf("%s: column %s is %q, want %q (Arrow %s)", engine, f.Name, got[f.Name], want, f.Type)
		}
	}
	for _, c := range []string{"run_started_ns", "events_mtime_ns", "first_issue_ns"} {
		if f, ok := schema.FieldsByName(c); ok && f[0].Type.ID() != arrow.INT64 {
			t.Errorf("%s: %s is %s: timestamps are int64 ns", engine, c, f[0].Type)
		}
	}
}

// checkEngineCells checks that an engine's rows (JSON: integers as
// numbers or decimal text, doubles as numbers) are arrow-go's, cell by
// cell, matched on run_id and config_id.
func checkEngineCells(t *testing.T, engine string, want map[string]map[string]any, got []map[string]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, arrow-go reads %d", engine, len(got), len(want))
	}
	bad := 0
	for _, g := range got {
		key := fmt.Sprint(g["run_id"]) + "/" + fmt.Sprint(g["config_id"])
		w, ok := want[key]
		if !ok {
			t.Fatalf("%s: row %s not read by arrow-go", engine, key)
		}
		for col, wv := range w {
			if gv, ok := g[col]; !ok || !sameEngineCell(wv, gv) {
				if bad++; bad <= 10 {
					t.Errorf("%s: row %s column %s: %v (%T), arrow-go %v (%T)", engine, key, col, gv, gv, wv, wv)
				}
			}
		}
	}
}

// sameEngineCell compares a value read by arrow-go with an engine's JSON one.
func sameEngineCell(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case string, bool:
		return got == w
	case int64:
		return fmt.Sprint(got) == strconv.FormatInt(w, 10)
	case int32:
		return fmt.Sprint(got) == strconv.FormatInt(int64(w), 10)
	case float64:
		n, ok := got.(json.Number)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(string(n), 64)
		return err == nil && f == w
	}
	return false
}

// checkREADMECells checks the cells of the README's query against the
// rows read in Go: the default preset's found rows grouped by model and
// concurrency, median steady system TPS (the middle values' mean) and,
// for the DuckDB query (full), the run count, median TPOT in ms and the
// failed samples.
func checkREADMECells(t *testing.T, engine string, rows []map[string]any, cells []map[string]any, full bool) {
	t.Helper()
	type agg struct {
		tps, tpot []float64
		failed    int64
	}
	want := map[notebookCell]*agg{}
	for _, r := range rows {
		if r["preset"] != "default" || r["found"] != true {
			continue
		}
		k := notebookCell{r["model"].(string), int(r["concurrency"].(int64))}
		if want[k] == nil {
			want[k] = &agg{}
		}
		a := want[k]
		a.tps = append(a.tps, r["steady_tps_system"].(float64))
		a.tpot = append(a.tpot, r["steady_tpot_p50_ns"].(float64)/1e6)
		a.failed += r["n_failed"].(int64)
	}
	if len(want) != 4 || len(cells) != len(want) {
		t.Fatalf("%s: %d cells, the rows give %d (want 4: 2 models × 2 concurrencies): %v", engine, len(cells), len(want), cells)
	}
	num := func(v any) float64 {
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		if err != nil {
			t.Fatalf("%s: not a number: %v", engine, v)
		}
		return f
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	failures := int64(0)
	for _, c := range cells {
		k := notebookCell{c["model"].(string), int(num(c["concurrency"]))}
		a := want[k]
		if a == nil {
			t.Errorf("%s: cell %v not in the rows", engine, k)
			continue
		}
		tps := c["tps"]
		if !full {
			tps = c["steady_tps_system"]
		}
		if !near(num(tps), median(a.tps)) {
			t.Errorf("%s: cell %v: median steady TPS %v, rows %v", engine, k, tps, median(a.tps))
		}
		if full {
			failures += a.failed
			if int(num(c["runs"])) != len(a.tps) || !near(num(c["tpot_ms"]), median(a.tpot)) || int64(num(c["failed"])) != a.failed {
				t.Errorf("%s: cell %v: %v; rows: %d runs, tpot %v ms, %d failed", engine, k, c, len(a.tps), median(a.tpot), a.failed)
			}
		}
	}
	if full && failures == 0 {
		t.Errorf("%s: no failures in the cells: the n_failed sum is untested", engine)
	}
	t.Logf("%s: %d cells: %v", engine, len(cells), cells)
}

// checkPythonSnippetColumns: the README's pandas and Polars snippets
// (Python, which this machine may lack) name only columns the rows have.
func checkPythonSnippetColumns(t *testing.T) {
	t.Helper()
	have := map[string]bool{}
	for _, f := range sinks.RowsSchema().Fields() {
		have[f.Name] = true
	}
	named := regexp.MustCompile(`pl\.col\("(\w+)"\)|(?:index|columns|values)="(\w+)"|rows\.(\w+)\b[^(]`)
	quoted := regexp.MustCompile(`"(\w+)"`)
	lists := regexp.MustCompile(`\.(?:group_by|sort)\(([^)]*)\)`)
	for _, s := range []struct{ first, must string }{{"import pandas", "read_parquet"}, {"import polars", "read_parquet"}} {
		block := readmeBlock(t, "python", s.first, s.must)
		var cols []string
		for _, m := range named.FindAllStringSubmatch(block, -1) {
			cols = append(cols, slices.DeleteFunc(m[1:], func(x string) bool { return x == "" })...)
		}
		for _, m := range lists.FindAllStringSubmatch(block, -1) {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				cols = append(cols, q[1])
			}
		}
		if len(cols) < 3 {
			t.Errorf("README %q snippet: found only columns %v", s.first, cols)
		}
		for _, c := range cols {
			if !have[c] {
				t.Errorf("README %q snippet names column %q, which the rows lack", s.first, c)
			}
		}
	}
}

// median is the middle value, or the mean of the two middle values.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
