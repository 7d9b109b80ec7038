package synth

import "math/rand/v2"

// vocabulary is the fixed word list every generated text draws from. No entry
// contains whitespace (ASCII or Unicode), a quote or a backslash, so a text's word
// count under Python's str.split equals the number of entries written, and the
// entries can be copied into JSON strings without escaping. A few non-ASCII words
// keep UTF-8 handling honest; none of them is a Unicode space.
var vocabulary = [...]string{
	"the", "of", "and", "to", "in", "is", "it", "that", "for", "on", "was", "with",
	"as", "at", "by", "be", "this", "are", "from", "or", "an", "have", "not", "but",
	"what", "all", "were", "when", "we", "there", "can", "more", "if", "no", "out",
	"so", "said", "up", "its", "about", "into", "than", "them", "only", "other", "new",
	"some", "could", "time", "these", "two", "may", "then", "first", "any", "like",
	"now", "such", "our", "over", "man", "me", "even", "most", "made", "after", "also",
	"did", "many", "before", "must", "through", "back", "years", "where", "much",
	"your", "way", "well", "down", "should", "because", "each", "just", "those",
	"people", "how", "too", "little", "state", "good", "very", "make", "world", "still",
	"own", "see", "work", "long", "get", "here", "between", "both", "life", "being",
	"under", "never", "day", "same", "another", "know", "while", "last", "might", "us",
	"great", "old", "year", "off", "come", "since", "against", "go", "came", "right",
	"used", "take", "three", "value", "cache", "queue", "batch", "token", "model",
	"result", "data", "plan", "cost", "risk", "rate", "unit", "term", "level", "type",
	"note", "step", "test", "task", "goal", "edge", "node", "map", "code", "file",
	"line", "page", "book", "road", "room", "door", "city", "team", "game", "home",
	"head", "hand", "face", "view", "case", "point", "order", "fact", "kind", "sort",
	"list", "set", "sum", "mean", "path", "rule", "form", "size", "state,", "value,",
	"time.", "cost,", "case.", "data,", "model.", "queue,", "level.", "plan,", "café",
	"naïve", "façade", "日本語", "→", "x²", "—", "déjà", "über",
}

// openers are the one-word first chunks of answers; like real first SSE chunks
// they are short and capitalised.
var openers = [...]string{
	"The", "We", "Here", "To", "This", "In", "Yes,", "Sure,", "First,", "It",
	"Let", "So,", "Okay,", "A", "Based", "Given",
}

// appendWords appends n words drawn from the vocabulary, each preceded by a
// separator: usually one space, sometimes a blank line (written JSON-escaped, as
// \n\n, because the caller is building the inside of a JSON string). The words
// after the caller's text are therefore exactly n under whitespace splitting.
func appendWords(dst []byte, rng *rand.Rand, n int) []byte {
	for i := 0; i < n; i++ {
		r := rng.Uint64()
		if r%41 == 0 {
			dst = append(dst, `\n\n`...)
		} else {
			dst = append(dst, ' ')
		}
		dst = append(dst, vocabulary[(r>>8)%uint64(len(vocabulary))]...)
	}
	return dst
}

// appendSentence appends n ≥ 1 words with no leading separator, for prompts and
// tool outputs whose text starts with a word.
func appendSentence(dst []byte, rng *rand.Rand, n int) []byte {
	if n <= 0 {
		return dst
	}
	dst = append(dst, vocabulary[rng.Uint64()%uint64(len(vocabulary))]...)
	return appendWords(dst, rng, n-1)
}

// appendOpener appends one opener word, the whole first chunk of an answer.
func appendOpener(dst []byte, rng *rand.Rand) []byte {
	return append(dst, openers[rng.Uint64()%uint64(len(openers))]...)
}
