package sharedtest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// NonStreamingCopy writes a copy of the shared parity run name into a
// temporary directory without its first-token events (sample.recv_first)
// and with streaming off in config.yaml: a non-streaming run of the same
// requests, which the parity corpus lacks. It skips like Dir when
// ../shared is absent, and returns the copy's directory.
func NonStreamingCopy(tb testing.TB, name string) string {
	tb.Helper()
	src := filepath.Join(Dir(tb, "parity/runs"), "parity", "runs", name)
	dst := filepath.Join(tb.TempDir(), name+"_nonstreaming")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, f := range []string{"config.yaml", "run_meta.json", "sample_idx_map.json", "events.jsonl"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			tb.Fatal(err)
		}
		switch f {
		case "config.yaml":
			data = bytes.Replace(data, []byte("streaming: 'on'"), []byte("streaming: 'off'"), 1)
		case "events.jsonl":
			var out bytes.Buffer
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(make([]byte, 1<<20), 1<<26)
			for sc.Scan() {
				if !bytes.Contains(sc.Bytes(), []byte(`"event_type":"sample.recv_first"`)) {
					out.Write(sc.Bytes())
					out.WriteByte('\n')
				}
			}
			if err := sc.Err(); err != nil {
				tb.Fatal(err)
			}
			data = out.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dst
}
