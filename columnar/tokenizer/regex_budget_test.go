package tokenizer

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// explosivePattern is issue 17 item 3's Split pattern: 25 optional groups
// of two identical alternatives, then "!", or any one character. Before
// the budget it took 9.4 s on an 8-character text and > 30 s on 10, and
// SIGTERM went unheard meanwhile.
var explosivePattern = strings.Repeat(`(?:[^!]|[^!])?`, 25) + `!|[\s\S]`

// within fails the test if f has not returned after d of the process's
// CPU time (the work f does: a loaded machine stretches wall time, not
// work), or after three minutes of wall time (a hang).
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	start, hang := processCPU(t), time.After(3*time.Minute)
	go func() { defer close(done); f() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-hang:
			t.Fatal("no return within 3 minutes")
		case <-tick.C:
			if used := processCPU(t) - start; used > d {
				t.Fatalf("no return within %v of CPU time", d)
			}
		}
	}
}

// tinyWithPattern is the tiny fixture with src as its Split pattern.
func tinyWithPattern(t testing.TB, src string) []byte {
	t.Helper()
	quoted, err := json.Marshal(src)
	if err != nil {
		t.Fatal(err)
	}
	return tinyWith(t, `"Regex": "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"`,
		`"Regex": `+string(quoted))
}

// parseUnchecked compiles src without the load-time width check, to show
// the matching budget alone bounds the patterns the check would refuse.
func parseUnchecked(t *testing.T, src string) *pattern {
	t.Helper()
	re, _, err := compileUnchecked(src)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

func TestExplosivePatternRefusedAtLoad(t *testing.T) {
	data := tinyWithPattern(t, explosivePattern)
	var err error
	within(t, 2*time.Second, func() { _, err = LoadBytes(data) })
	if !errors.Is(err, ErrPatternTooExpensive) || !strings.Contains(err.Error(), "could try 8.47e+11 ways to match at one position") {
		t.Fatalf("LoadBytes = %v, want %v with the width", err, ErrPatternTooExpensive)
	}
}

// TestMatchBudget: patterns that explode while matching fail the count
// with ErrPatternTooExpensive in milliseconds, however they got past the
// load-time check.
func TestMatchBudget(t *testing.T) {
	for _, tc := range []struct {
		name, src, text string
	}{
		// Exponential: 3^8 ways on 8 characters is 6561, fine; 3^25 is not.
		{"issue17 on 10 bytes", explosivePattern, "abcdefghij"},
		{"issue17 on 40 bytes", explosivePattern, strings.Repeat("x", 40)},
		// Polynomial, O(n^4) per position: width 16^4 passes the load check.
		{"a*a*a*a*b on 3000 a", `a*a*a*a*b|a`, strings.Repeat("a", 3000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re := parseUnchecked(t, tc.src)
			var m matcher
			m.reset(context.Background())
			within(t, 2*time.Second, func() { m.preTokenize([]*pattern{re}, tc.text, nil) })
			if !errors.Is(m.err, ErrPatternTooExpensive) || !strings.Contains(m.err.Error(), "steps on a") {
				t.Fatalf("err = %v, want %v", m.err, ErrPatternTooExpensive)
			}
		})
	}
	// The same through a tokenizer: Count is -1, CountContext says why.
	tok, err := LoadBytes(tinyWithPattern(t, `a*a*a*a*b|a`))
	if err != nil {
		t.Fatal(err)
	}
	text := "hello " + strings.Repeat("a", 3000)
	if n := tok.Count(text); n != -1 {
		t.Errorf("Count = %d, want -1", n)
	}
	if _, err := tok.CountContext(context.Background(), text); !errors.Is(err, ErrPatternTooExpensive) {
		t.Errorf("CountContext error = %v", err)
	}
	if ids, err := tok.AppendEncodeContext(context.Background(), []uint32{7}, text); !errors.Is(err, ErrPatternTooExpensive) || len(ids) != 1 {
		t.Errorf("AppendEncodeContext = %v, %v", ids, err)
	}
	if n, err := tok.CountContext(context.Background(), "hello aab"); err != nil || n <= 0 {
		t.Errorf("a short text: %d, %v", n, err)
	}
}

// TestBacktrackWidthOfSharedPatterns pins the load-time score of every
// shared tokenizer's Split patterns: far below maxBacktrackWidth.
func TestBacktrackWidthOfSharedPatterns(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want float64
	}{
		{llamaPattern, 43}, {gptossPattern, 562}, {deepseekDigits, 1}, {deepseekCJK, 1}, {deepseekWords, 37},
	} {
		_, root, err := compileUnchecked(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := nodeWidth(root); got != tc.want {
			t.Errorf("width of %.40q… = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestBudgetKeepsLongLegitimateTexts: the shared tokenizers count texts
// built to be their patterns' slowest (long runs that a greedy repetition
// gives back one character at a time) without running out of budget.
func TestBudgetKeepsLongLegitimateTexts(t *testing.T) {
	dir := sharedDir(t)
	texts := map[string]string{
		"upper":      strings.Repeat("ABCDEFGHIJ", 20_000),
		"spaces":     strings.Repeat(" ", 200_000) + "x",
		"digits":     strings.Repeat("1234567890", 20_000),
		"apostrophe": strings.Repeat("'", 200_000),
		"newlines":   strings.Repeat(" \r\n", 70_000),
		"cjk":        strings.Repeat("日本語", 70_000),
	}
	for _, name := range sharedTokenizerNames {
		tok, err := Load(filepath.Join(dir, name, "tokenizer.json.gz"))
		if err != nil {
			t.Fatal(err)
		}
		for what, text := range texts {
			start := time.Now()
			if _, err := tok.CountContext(context.Background(), text); err != nil {
				t.Errorf("%s on %s: %v", name, what, err)
			}
			t.Logf("%s on %s: %v", name, what, time.Since(start))
		}
	}
}

// TestCountCancelled: a cancelled context stops a long count mid-text
// within a second of CPU time (SIGTERM must end any phase that fast).
// CPU time of the process, not wall time: a loaded machine that gives the
// count no core stretches the wall time, not the work; a count that
// ignores the cancel works on for the whole text (several CPU seconds).
func TestCountCancelled(t *testing.T) {
	tok := loadTiny(t)
	text := strings.Repeat("hello world, it's 1234 ", 3<<20) // 69 MB
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	var cancelledCPU time.Duration
	within(t, time.Minute, func() {
		time.AfterFunc(100*time.Millisecond, func() { cancelledCPU = processCPU(t); cancel() })
		_, err = tok.CountContext(ctx, text)
	})
	if err == nil {
		t.Skip("the count finished before the cancel: machine too fast for this text")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := processCPU(t) - cancelledCPU; d > time.Second {
		t.Errorf("%v of CPU after the cancel", d)
	}
}

// processCPU is the user+system CPU time this process has used.
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestPatternLimits(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{strings.Repeat("a", maxPatternBytes+1), "longer than 65536 bytes"},
		{strings.Repeat("(", 40) + "a" + strings.Repeat(")", 40), "groups nested deeper than 32"},
	} {
		var err error
		within(t, 2*time.Second, func() { _, err = compilePattern(tc.src) })
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 200 {
			t.Errorf("compilePattern(%.20q…) = %v, want a short error saying %q", tc.src, err, tc.want)
		}
	}
	// Long but linear patterns compile in linear time: 64 KiB of literals,
	// of optional literals, of alternatives.
	for _, src := range []string{
		strings.Repeat("ab", maxPatternBytes/2),
		strings.Repeat("a?", maxPatternBytes/4) + "b",
		strings.Repeat("ab|", maxPatternBytes/3-1) + "c",
	} {
		within(t, 10*time.Second, func() { compilePattern(src) })
	}
}
