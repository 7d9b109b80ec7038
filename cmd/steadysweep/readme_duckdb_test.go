package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// duckdbScript runs the SQL on stdin with DuckDB's Node binding and prints
// the rows as JSON (big integers as strings).
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

// duckdbNode returns a command running duckdbScript, or skips: DuckDB is
// optional (install @duckdb/node-api outside the repository and point
// STEADYSWEEP_NODE_MODULES at its node_modules).
func duckdbNode(t *testing.T) func(sql string) ([]byte, error) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("DuckDB check skipped: no node on PATH")
	}
	env := os.Environ()
	if dir := os.Getenv("STEADYSWEEP_NODE_MODULES"); dir != "" {
		env = append(env, "NODE_PATH="+dir)
	}
	probe := exec.Command(node, "-e", "require('@duckdb/node-api')")
	probe.Env = env
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("DuckDB check skipped: @duckdb/node-api not found (npm install @duckdb/node-api in a directory outside the repo, "+
			"then STEADYSWEEP_NODE_MODULES=DIR/node_modules): %v %.200s", err, out)
	}
	return func(sql string) ([]byte, error) {
		cmd := exec.Command(node, "-e", duckdbScript)
		cmd.Env, cmd.Stdin = env, strings.NewReader(sql)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%v: %s", err, stderr.String())
		}
		return out, nil
	}
}

// readmeSQL is the README's DuckDB snippet (the sql block starting
// "-- duckdb").
func readmeSQL(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```sql\n-- duckdb\n")
	sql, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 || !strings.Contains(sql, "'out/rows/*.parquet'") {
		t.Fatalf("README has no DuckDB snippet reading 'out/rows/*.parquet'")
	}
	return sql
}

// TestREADMEDuckDBQuery runs the README's DuckDB query on a sweep of
// synthetic runs of two models at two concurrencies (one cell with two
// seeds) and checks every cell against the rows read back in Go: runs,
// median steady TPS (the two middle values' mean), median TPOT in ms and
// the failures.
func TestREADMEDuckDBQuery(t *testing.T) {
	query := duckdbNode(t)
	sql := readmeSQL(t)
	arch := filepath.Join(t.TempDir(), "arch")
	type cell struct {
		model string
		conc  int
	}
	runs := []struct {
		cell
		seed uint64
	}{{cell{"org/model-a", 8}, 1}, {cell{"org/model-a", 16}, 2}, {cell{"org/model-a", 16}, 3}, {cell{"org/model-b", 8}, 4},
		{cell{"org/model-b", 16}, 5}}
	for i, r := range runs {
		spec, err := synth.PresetSpec("clean_ramp", r.seed)
		if err != nil {
			t.Fatal(err)
		}
		spec.Model, spec.Concurrency = r.model, r.conc
		spec.FailureRate = 0.01 * float64(i%2)
		if _, err := synth.Generate(filepath.Join(arch, fmt.Sprintf("run%d", i)), spec); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "-q", "--preset", "default,reference"); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr)
	}
	got, err := query(strings.ReplaceAll(sql, "'out/rows/*.parquet'", "'"+filepath.Join(out, "rows", "*.parquet")+"'"))
	if err != nil {
		t.Fatalf("DuckDB: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(got))
	dec.UseNumber()
	var cells []map[string]any
	if err := dec.Decode(&cells); err != nil {
		t.Fatalf("DuckDB output %q: %v", got, err)
	}

	// The same cells from the rows, read in Go.
	type agg struct {
		tps, tpot []float64
		failed    int64
	}
	want := map[cell]*agg{}
	for _, r := range readParquetRecords(t, partFiles(t, out, "rows")...) {
		if r["preset"] != "default" || r["found"] != true {
			continue
		}
		k := cell{r["model"].(string), int(r["concurrency"].(int64))}
		if want[k] == nil {
			want[k] = &agg{}
		}
		a := want[k]
		a.tps = append(a.tps, r["steady_tps_system"].(float64))
		a.tpot = append(a.tpot, r["steady_tpot_p50_ns"].(float64)/1e6)
		a.failed += r["n_failed"].(int64)
	}
	if len(want) < 3 || len(cells) != len(want) {
		t.Fatalf("DuckDB gave %d cells, the rows %d (want ≥ 3 found): %s", len(cells), len(want), got)
	}
	num := func(v any) float64 {
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		if err != nil {
			t.Fatalf("not a number: %v", v)
		}
		return f
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	failures := int64(0)
	for _, c := range cells {
		k := cell{c["model"].(string), int(num(c["concurrency"]))}
		a := want[k]
		if a == nil {
			t.Errorf("DuckDB cell %v not in the rows", k)
			continue
		}
		failures += a.failed
		if int(num(c["runs"])) != len(a.tps) || !near(num(c["tps"]), median(a.tps)) || !near(num(c["tpot_ms"]), median(a.tpot)) ||
			int64(num(c["failed"])) != a.failed {
			t.Errorf("cell %v: DuckDB %v; rows: %d runs, tps %v, tpot %v ms, %d failed", k, c, len(a.tps), median(a.tps), median(a.tpot), a.failed)
		}
	}
	if failures == 0 {
		t.Error("no failures in the cells: the n_failed sum is untested")
	}
	t.Logf("%d cells: %s", len(cells), got)
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
