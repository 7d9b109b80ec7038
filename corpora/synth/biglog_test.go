package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

func TestGenerateLog_SizeAndFormat(t *testing.T) {
	spec := presetSpec(t, "clean_ramp", 4)
	spec.OutputScale, spec.MaxNewTokens = 10, 8192
	const target = 8 << 20
	var a, b bytes.Buffer
	if err := GenerateLog(&a, spec, target); err != nil {
		t.Fatalf("GenerateLog: %v", err)
	}
	if err := GenerateLog(&b, spec, target); err != nil {
		t.Fatalf("GenerateLog: %v", err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two GenerateLog calls with the same spec wrote different bytes")
	}
	if size := a.Len(); size < target*85/100 || size > target*115/100 {
		t.Errorf("log is %d bytes, want within 15%% of %d", size, target)
	}
	lines := bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n"))
	for i, line := range lines {
		if !json.Valid(line) {
			t.Fatalf("line %d is not JSON: %.200s", i+1, line)
		}
	}
	var last struct {
		EventType string `json:"event_type"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil || last.EventType != topicEnded {
		t.Errorf("last line event %q (%v), want %s", last.EventType, err, topicEnded)
	}
}

// BenchmarkGenerateLog measures generation speed in MB/s for parity-shaped
// closed-loop logs with long outputs (~1,200 words a sample).
//
//	go test -run '^$' -bench BenchmarkGenerateLog -benchtime 3x ./corpora/synth
func BenchmarkGenerateLog(b *testing.B) {
	spec := presetSpec(b, "clean_ramp", 1)
	spec.OutputScale, spec.MaxNewTokens = 20, 8192
	for _, size := range []int64{32 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("size=%dMB", size>>20), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if err := GenerateLog(io.Discard, spec, size); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
