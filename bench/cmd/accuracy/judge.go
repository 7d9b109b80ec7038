package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
)

// runJudge runs `python3 judge.py CORPUS OUT`, keeps its full table in
// OUT/judge.txt and returns its one-line summary (the last line). judge.py
// exits 1 when a gate fails; that is a result, not an error.
func runJudge(ctx context.Context, python, judgePy, corpus, out string) (string, error) {
	cmd := exec.CommandContext(ctx, python, judgePy, corpus, out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, isExit := err.(*exec.ExitError); err != nil && (!isExit || stdout.Len() == 0) {
		return "", fmt.Errorf("%s %s: %v: %s", python, judgePy, err, firstLine(stderr.Bytes()))
	}
	if err := os.WriteFile(filepath.Join(out, "judge.txt"), stdout.Bytes(), 0o644); err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	return lines[len(lines)-1], nil
}

// judgeRow is one run as judge.py's judge_run scores it.
type judgeRow struct {
	Name      string   `json:"name"`
	Category  string   `json:"category"`
	HasSteady bool     `json:"has_steady"`
	HasShift  bool     `json:"has_shift"`
	TailSP    *float64 `json:"tail_sp"` // super-passes after the last planted step
	Out       bool     `json:"out"`
	Found     bool     `json:"found"`
	Anomaly   bool     `json:"anomaly"`
	Err       *float64 `json:"err"` // nil when not found or infinite
	ErrInf    bool     `json:"err_inf"`
	Status    string   `json:"status"`
	Window    []int    `json:"win"`
	Plateau   []int    `json:"plateau_sp"`
}

// judgeRowsPy imports judge.py and prints judge_run's verdict on every run
// as a JSON line: the judge's own truth derivation and error, nothing
// recomputed here.
const judgeRowsPy = `
import json, math, os, sys
sys.dont_write_bytecode = True
jdir, corpus, out = sys.argv[1:4]
sys.path.insert(0, jdir)
import judge
tdir = os.path.join(corpus, "truth")
for f in sorted(os.listdir(tdir)):
    if not f.endswith(".json"):
        continue
    n = f[:-5]
    with open(os.path.join(tdir, f), encoding="utf-8") as fh:
        truth = json.load(fh)
    r = judge.judge_run(n, truth, judge.load_out(os.path.join(out, n + ".json")))
    tr = r["truth"]
    cps = tr["change_points_sp"]
    err = r.get("err")
    n_sp = tr["n_tracked"] / tr["superpass_size"]
    print(json.dumps({
        "name": n, "category": tr["category"], "has_steady": tr["has_steady"],
        "has_shift": tr["has_level_shift"], "tail_sp": (n_sp - max(cps)) if cps else None,
        "out": r["out"], "found": bool(r.get("found")), "anomaly": bool(r.get("anomaly")),
        "err": None if err is None or math.isinf(err) else err,
        "err_inf": err is not None and math.isinf(err), "status": r.get("status") or "",
        "win": list(r["win"]) if r.get("win") else None, "plateau_sp": tr["plateau_sp"]}))
`

// judgeRows returns judge_run's rows for every run of corpus against the
// outputs in out.
func judgeRows(ctx context.Context, python, judgePy, corpus, out string) ([]judgeRow, error) {
	cmd := exec.CommandContext(ctx, python, "-c", judgeRowsPy, filepath.Dir(judgePy), corpus, out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("judge rows of %s: %v: %s", out, err, firstLine(stderr.Bytes()))
	}
	rows, err := bench.ReadJSONL[judgeRow](bytes.NewReader(raw), 1<<20)
	if err != nil {
		return nil, fmt.Errorf("judge rows of %s: %w", out, err)
	}
	return rows, nil
}
