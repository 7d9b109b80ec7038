// Package tokenizer counts tokens exactly as Hugging Face tokenizers does
// with add_special_tokens=false, in pure Go and offline, from a model's
// tokenizer.json.
//
// Token counts turn a run's timings into per-token latencies (TPOT is the
// time after the first chunk divided by the tokens after it), and the
// event logs carry no counts, so every output text is counted here; the
// ids must equal HF's for the counts to be the reference's.
//
// Supported is what the byte-level BPE tokenizers of DeepSeek-V3/R1,
// GPT-OSS (o200k_harmony), Qwen3 and Llama 3.1 use: normalizer NFC or none,
// Split pre-tokenizers (behavior Isolated) with Oniguruma regexes, a final
// ByteLevel, the BPE model (ignore_merges, continuing_subword_prefix,
// end_of_word_suffix) and added tokens, special or not, normalized or not.
// Anything else fails to load with an "unsupported: <component>" error
// instead of miscounting. On the 3000 shared texts of each of the five
// shared tokenizers the ids equal HF's exactly.
//
// One input and its ids (Llama 3.1):
//
//	"Hello world<|eot_id|>"  →  [9906 1917 128009]
//
// Words, the other Counter, counts whitespace-separated words the way
// Python's len(str.split()) does; it approximates tokens and exists for
// parity with the reference detector's tests.
package tokenizer
