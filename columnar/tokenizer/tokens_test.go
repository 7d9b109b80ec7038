package tokenizer

import (
	"errors"
	"strings"
	"testing"
)

func TestRunTokens(t *testing.T) {
	tok := loadTiny(t)
	// Ids as derived in TestEncodeTiny.
	in := `{"text": "hello world"}

{"text": "", "extra": 1}
{"text": "hello<|end|>world"}
`
	var out strings.Builder
	if err := RunTokens(strings.NewReader(in), &out, tok, true); err != nil {
		t.Fatal(err)
	}
	want := `{"count":2,"ids":[259,264]}
{"count":0,"ids":[]}
{"count":5,"ids":[259,266,119,261,263]}
`
	if out.String() != want {
		t.Errorf("output:\ngot  %s\nwant %s", out.String(), want)
	}

	out.Reset()
	if err := RunTokens(strings.NewReader(`{"text":"a b  c"}`), &out, Words{}, false); err != nil {
		t.Fatal(err)
	}
	if out.String() != "{\"count\":3}\n" {
		t.Errorf("words output = %q", out.String())
	}
	if err := RunTokens(strings.NewReader(`{"text":"a"}`), &out, Words{}, true); err == nil {
		t.Error("ids with the words counter: no error")
	}
}

func TestRunTokensBadLines(t *testing.T) {
	tests := []struct {
		in       string
		line     int
		contains string
	}{
		{"{\"text\":\"a\"}\nnot json\n", 2, "invalid character"},
		{"{\"text\":\"a\"}\n\n{\"txt\":\"a\"}\n", 3, `string "text" field`},
		{`{"text": 5}`, 1, "cannot unmarshal number"},
		{`{"text": null}`, 1, `string "text" field`},
	}
	for _, tt := range tests {
		var out strings.Builder
		err := RunTokens(strings.NewReader(tt.in), &out, Words{}, false)
		var le *LineError
		if !errors.As(err, &le) || le.Line != tt.line || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("RunTokens(%q) error = %v, want line %d containing %q", tt.in, err, tt.line, tt.contains)
		}
	}
}
