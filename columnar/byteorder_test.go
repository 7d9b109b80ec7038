package columnar

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectByteOrderMarks: the first bytes of a log decide its encoding
// before its format. The marks are the Unicode standard's (FF FE 00 00
// UTF-32LE, 00 00 FE FF UTF-32BE, FF FE UTF-16LE, FE FF UTF-16BE); a
// UTF-8 mark is read as before, and a gzip'd UTF-16 log is refused after
// decompression, by the name of the .gz file.
func TestDetectByteOrderMarks(t *testing.T) {
	line := `{"metadata":{"x_request_id":"a"},"metrics":{}}` + "\n"
	utf16le := func(s string) []byte {
		out := []byte{0xff, 0xfe}
		for _, c := range []byte(s) {
			out = append(out, c, 0)
		}
		return out
	}
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(utf16le(line))
	zw.Close()
	for _, tc := range []struct {
		name string
		data []byte
		enc  string // "" for a file that is read
	}{
		{"utf8bom.jsonl", append([]byte("\xef\xbb\xbf"), line...), ""},
		{"le16.jsonl", utf16le(line), "UTF-16LE"},
		{"be16.jsonl", append([]byte{0xfe, 0xff, 0, '{'}, "\x00}"...), "UTF-16BE"},
		{"le32.jsonl", append([]byte{0xff, 0xfe, 0, 0, '{', 0, 0, 0}, "}\x00\x00\x00"...), "UTF-32LE"},
		{"be32.jsonl", append([]byte{0, 0, 0xfe, 0xff, 0, 0, 0, '{'}, "\x00\x00\x00}"...), "UTF-32BE"},
		{"le16.jsonl.gz", gz.Bytes(), "UTF-16LE"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := DetectFile(p)
		if tc.enc == "" {
			if err != nil || f != FormatAIPerf {
				t.Errorf("%s: %q, %v; want aiperf", tc.name, f, err)
			}
			continue
		}
		var e *EncodingError
		if !errors.As(err, &e) || e.Encoding != tc.enc || !errors.Is(err, ErrUnknownFormat) ||
			!strings.HasPrefix(err.Error(), p+": "+tc.enc+" log (byte-order mark): not read; convert it to UTF-8") {
			t.Errorf("%s: %q, %v; want the %s refusal naming the file", tc.name, f, err, tc.enc)
		}
		if paths, formats := ForeignLogsAmong(dir, []string{tc.name}); len(paths) != 1 || formats[0] != "" {
			t.Errorf("%s: ForeignLogsAmong gave %v %v; want it kept, format undecided", tc.name, paths, formats)
		}
	}
}
