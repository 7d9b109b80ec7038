package columnar

// TokenCounter counts the tokens of an output text. Count must not retain
// text (it may alias a reused buffer) and, when DecodeOptions.Workers >
// 1, must be safe for concurrent use. Identity names the counter for
// cache keys, e.g. "words" or a tokenizer id with its revision.
type TokenCounter interface {
	Count(text string) int
	Identity() string
}
