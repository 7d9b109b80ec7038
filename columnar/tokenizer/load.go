package tokenizer

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// The subset of tokenizer.json this package reads (decodeTokenizerFile).
// Every field that can change ids is checked; components that cannot
// (decoder, the offsets of ByteLevel post-processing) are ignored.
type tokenizerFile struct {
	Truncation    json.RawMessage `json:"truncation"`
	Padding       json.RawMessage `json:"padding"`
	AddedTokens   []addedToken    `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Model         bpeFile         `json:"model"`
}

type bpeFile struct {
	Type                    string          `json:"type"`
	Dropout                 *float64        `json:"dropout"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	Vocab                   json.RawMessage `json:"vocab"`  // read by scanVocab
	Merges                  json.RawMessage `json:"merges"` // read by scanMerges
}

// component is the common shape of normalizers, pre-tokenizers and
// post-processors: a type tag plus type-specific fields.
type component struct {
	Type           string            `json:"type"`
	Normalizers    []json.RawMessage `json:"normalizers"`
	Pretokenizers  []json.RawMessage `json:"pretokenizers"`
	Processors     []json.RawMessage `json:"processors"`
	Pattern        map[string]string `json:"pattern"`
	Behavior       string            `json:"behavior"`
	Invert         bool              `json:"invert"`
	AddPrefixSpace *bool             `json:"add_prefix_space"`
	UseRegex       *bool             `json:"use_regex"`
}

// tokenizerConfig is the part of tokenizer_config.json that changes what
// transformers' tokenizer counts: tokens added there but absent from
// tokenizer.json, and split_special_tokens.
type tokenizerConfig struct {
	AddedTokensDecoder map[string]addedToken `json:"added_tokens_decoder"`
	SplitSpecialTokens bool                  `json:"split_special_tokens"`
}

// Load reads a tokenizer.json, or a gzip-compressed tokenizer.json.gz, and
// the tokenizer_config.json beside it if there is one.
func Load(path string) (*Tokenizer, error) {
	data, err := readMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	cfg, _, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	t, err := load(data, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// readConfig reads the tokenizer_config.json beside the tokenizer file at
// path: nil when there is none; raw is its bytes (for the cache key).
func readConfig(path string) (cfg *tokenizerConfig, raw []byte, err error) {
	if raw, err = readConfigRaw(path); err != nil {
		return nil, nil, err
	}
	if cfg, err = parseConfig(raw, path); err != nil {
		return nil, nil, err
	}
	return cfg, raw, nil
}

// parseConfig parses the bytes of the tokenizer_config.json beside path;
// nil bytes (no file) are a nil config.
func parseConfig(raw []byte, path string) (*tokenizerConfig, error) {
	if raw == nil {
		return nil, nil
	}
	cfg := new(tokenizerConfig)
	if err := json.Unmarshal(raw, cfg); err != nil {
		return nil, fmt.Errorf("tokenizer: decode %s: %w", configPath(path), err)
	}
	return cfg, nil
}

// readConfigRaw returns the bytes of the tokenizer_config.json beside
// path, nil without one.
func readConfigRaw(path string) ([]byte, error) {
	raw, err := safeopen.ReadFile(configPath(path), "tokenizer_config.json", safeopen.LimitTokenizerConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tokenizer: read %s: %w", configPath(path), err)
	}
	if raw == nil {
		raw = []byte{} // an empty file is there (and not JSON), unlike none
	}
	return raw, nil
}

func configPath(path string) string {
	return filepath.Join(filepath.Dir(path), "tokenizer_config.json")
}

// LoadBytes builds a tokenizer from the bytes of a tokenizer.json, plain
// or gzip-compressed, without a tokenizer_config.json.
func LoadBytes(data []byte) (*Tokenizer, error) {
	data, err := gunzipIfCompressed(data, "tokenizer.json")
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return load(data, nil)
}

func readMaybeGzip(path string) ([]byte, error) {
	data, err := safeopen.ReadFile(path, "tokenizer files", safeopen.LimitTokenizer)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	data, err = gunzipIfCompressed(data, path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return data, nil
}

// gunzipIfCompressed recognises gzip by its magic bytes rather than by a
// file name, so a .json.gz renamed or piped in still loads, and the
// identity is always that of the uncompressed JSON.
// The decompressed size is bounded like the file (a gzip bomb of a few KB
// could otherwise expand to any size); name is the file in messages.
func gunzipIfCompressed(data []byte, name string) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: gunzip: %w", name, err)
	}
	defer zr.Close()
	out, err := safeopen.ReadAll(zr, name, "tokenizer files (decompressed)", safeopen.LimitTokenizer)
	if err != nil {
		var se *safeopen.Error
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: gunzip: %w", name, err)
	}
	return out, nil
}

func load(data []byte, cfg *tokenizerConfig) (*Tokenizer, error) {
	p, err := parseParts(data, cfg)
	if err != nil {
		return nil, err
	}
	return p.assemble()
}

// parts is what a Tokenizer is built from once tokenizer.json (and
// tokenizer_config.json) are read: everything that decides the ids, in
// the form the compiled cache stores (compiled.go).
type parts struct {
	identity string
	nfc      bool
	patterns []string // the Split regexes, in order
	// raw and normalized are the added tokens matched before and after
	// normalisation (normalized ones already NFC'd when nfc).
	raw, normalized []addedToken
	model           *bpeModel
}

func parseParts(data []byte, cfg *tokenizerConfig) (*parts, error) {
	sum := sha256.Sum256(data)
	file, err := decodeTokenizerFile(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: decode tokenizer.json: %w", err)
	}
	if !isNull(file.Truncation) {
		return nil, errors.New("tokenizer: unsupported: truncation")
	}
	if !isNull(file.Padding) {
		return nil, errors.New("tokenizer: unsupported: padding")
	}
	p := &parts{identity: "sha256:" + hex.EncodeToString(sum[:])}
	if p.nfc, err = parseNormalizer(file.Normalizer); err != nil {
		return nil, err
	}
	if p.patterns, err = parsePreTokenizer(file.PreTokenizer); err != nil {
		return nil, err
	}
	if err := checkPostProcessor(file.PostProcessor); err != nil {
		return nil, err
	}
	if p.model, err = buildBPE(&file.Model); err != nil {
		return nil, err
	}
	added := file.AddedTokens
	if cfg != nil {
		added = mergeConfigTokens(added, cfg)
	}
	for _, a := range added {
		if cfg != nil && cfg.SplitSpecialTokens && a.Special {
			continue
		}
		if a.Normalized {
			if p.nfc {
				a.Content = string(appendNFC(nil, a.Content))
			}
			p.normalized = append(p.normalized, a)
		} else {
			p.raw = append(p.raw, a)
		}
	}
	return p, nil
}

// assemble compiles the Split patterns and builds the added-token
// matchers: the work shared by a load from JSON and from the cache.
func (p *parts) assemble() (*Tokenizer, error) {
	t := &Tokenizer{identity: p.identity, nfc: p.nfc, model: p.model}
	for _, src := range p.patterns {
		re, err := compilePattern(src)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
		t.splits = append(t.splits, re)
	}
	t.addedRaw = newAddedMatcher(p.raw)
	t.addedNormalized = newAddedMatcher(p.normalized)
	t.initPool()
	return t, nil
}

// mergeConfigTokens adds the tokens of added_tokens_decoder that
// tokenizer.json lacks, as transformers does when it loads both files.
func mergeConfigTokens(added []addedToken, cfg *tokenizerConfig) []addedToken {
	have := make(map[uint32]bool, len(added))
	for _, a := range added {
		have[a.ID] = true
	}
	var extra []addedToken
	for key, a := range cfg.AddedTokensDecoder {
		var id uint32
		if _, err := fmt.Sscan(key, &id); err != nil || have[id] {
			continue
		}
		a.ID = id
		extra = append(extra, a)
	}
	if len(extra) == 0 {
		return added
	}
	return append(append([]addedToken(nil), added...), extra...)
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

func decodeComponent(raw json.RawMessage, what string) (*component, error) {
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("tokenizer: decode %s: %w", what, err)
	}
	return &c, nil
}

// parseNormalizer reports whether the normalizer is NFC; no normalizer and
// an empty Sequence are the identity.
func parseNormalizer(raw json.RawMessage) (nfc bool, err error) {
	if isNull(raw) {
		return false, nil
	}
	c, err := decodeComponent(raw, "normalizer")
	if err != nil {
		return false, err
	}
	switch c.Type {
	case "NFC":
		return true, nil
	case "Sequence":
		for _, sub := range c.Normalizers {
			subNFC, err := parseNormalizer(sub)
			if err != nil {
				return false, err
			}
			nfc = nfc || subNFC // NFC is idempotent
		}
		return nfc, nil
	}
	return false, fmt.Errorf("tokenizer: unsupported: normalizer %q", c.Type)
}

// parsePreTokenizer accepts Split steps followed by one final ByteLevel
// without its own regex or prefix space, the shape of every shared
// tokenizer.
func parsePreTokenizer(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, errors.New("tokenizer: unsupported: no pre_tokenizer (a byte-level BPE needs ByteLevel)")
	}
	var steps []*component
	var flatten func(raw json.RawMessage) error
	flatten = func(raw json.RawMessage) error {
		c, err := decodeComponent(raw, "pre_tokenizer")
		if err != nil {
			return err
		}
		if c.Type == "Sequence" {
			for _, sub := range c.Pretokenizers {
				if err := flatten(sub); err != nil {
					return err
				}
			}
			return nil
		}
		steps = append(steps, c)
		return nil
	}
	if err := flatten(raw); err != nil {
		return nil, err
	}
	var splits []string
	for i, c := range steps {
		switch c.Type {
		case "Split":
			src, ok := c.Pattern["Regex"]
			if !ok || len(c.Pattern) != 1 {
				return nil, errors.New("tokenizer: unsupported: Split pattern other than Regex")
			}
			if c.Behavior != "Isolated" || c.Invert {
				return nil, fmt.Errorf("tokenizer: unsupported: Split behavior %q invert %v", c.Behavior, c.Invert)
			}
			splits = append(splits, src)
		case "ByteLevel":
			// HF's defaults for absent fields are true.
			if c.AddPrefixSpace == nil || *c.AddPrefixSpace {
				return nil, errors.New("tokenizer: unsupported: ByteLevel pre-tokenizer with add_prefix_space")
			}
			if c.UseRegex == nil || *c.UseRegex {
				return nil, errors.New("tokenizer: unsupported: ByteLevel pre-tokenizer with use_regex")
			}
			if i != len(steps)-1 {
				return nil, errors.New("tokenizer: unsupported: pre-tokenizer after ByteLevel")
			}
			return splits, nil
		default:
			return nil, fmt.Errorf("tokenizer: unsupported: pre_tokenizer %q", c.Type)
		}
	}
	return nil, errors.New("tokenizer: unsupported: pre_tokenizer without ByteLevel")
}

// checkPostProcessor accepts the post-processors that add nothing when
// encoding with add_special_tokens=false.
func checkPostProcessor(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	c, err := decodeComponent(raw, "post_processor")
	if err != nil {
		return err
	}
	switch c.Type {
	case "ByteLevel", "TemplateProcessing", "BertProcessing", "RobertaProcessing":
		return nil
	case "Sequence":
		for _, sub := range c.Processors {
			if err := checkPostProcessor(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("tokenizer: unsupported: post_processor %q", c.Type)
}
