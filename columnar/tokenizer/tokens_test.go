package tokenizer

import (
	"context"
	"errors"
	"io"
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
	if err := RunTokens(context.Background(), strings.NewReader(in), &out, tok, true); err != nil {
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
	if err := RunTokens(context.Background(), strings.NewReader(`{"text":"a b  c"}`), &out, Words{}, false); err != nil {
		t.Fatal(err)
	}
	if out.String() != "{\"count\":3}\n" {
		t.Errorf("words output = %q", out.String())
	}
	if err := RunTokens(context.Background(), strings.NewReader(`{"text":"a"}`), &out, Words{}, true); err == nil {
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
		err := RunTokens(context.Background(), strings.NewReader(tt.in), &out, Words{}, false)
		var le *LineError
		if !errors.As(err, &le) || le.Line != tt.line || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("RunTokens(%q) error = %v, want line %d containing %q", tt.in, err, tt.line, tt.contains)
		}
	}
}

// endless is an input of one line that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestRunTokensLineCap: issue 17 item 11 — a 1 GB line used to be read
// whole (3.2 GB resident); now a line over MaxTokensLine is an error at
// line N once MaxTokensLine bytes are read, even from an input that never
// ends.
func TestRunTokensLineCap(t *testing.T) {
	defer func(n int) { maxTokensLine = n }(maxTokensLine)
	maxTokensLine = 1 << 20 // the logic of 64 MiB at the speed of 1
	in := io.MultiReader(strings.NewReader("{\"text\":\"a\"}\n{\"text\":\""), endless{})
	var out strings.Builder
	err := RunTokens(context.Background(), in, &out, Words{}, false)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !errors.Is(err, ErrLineTooLong) || err.Error() != "tokens: line 2: line too long: more than 1 MiB" {
		t.Fatalf("error = %v", err)
	}
	if out.String() != "{\"count\":1}\n" {
		t.Errorf("output before the long line: %q", out.String())
	}
	// A line of exactly the cap is read.
	text := strings.Repeat("a ", (maxTokensLine-len(`{"text":""}`+"\n"))/2)
	out.Reset()
	if err := RunTokens(context.Background(), strings.NewReader(`{"text":"`+text+`"}`+"\n"), &out, Words{}, false); err != nil {
		t.Fatalf("a line at the cap: %v", err)
	}
}

// TestRunTokensPatternTooExpensive: a text the Split pattern cannot split
// in bounded time is an error naming its line.
func TestRunTokensPatternTooExpensive(t *testing.T) {
	tok, err := LoadBytes(tinyWithPattern(t, `a*a*a*a*b|a`))
	if err != nil {
		t.Fatal(err)
	}
	in := "{\"text\":\"ab\"}\n{\"text\":\"" + strings.Repeat("a", 3000) + "\"}\n"
	var out strings.Builder
	err = RunTokens(context.Background(), strings.NewReader(in), &out, tok, false)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !errors.Is(err, ErrPatternTooExpensive) {
		t.Fatalf("error = %v", err)
	}
}
