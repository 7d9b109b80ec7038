package tokenizer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// Resolution says which tokenizer Resolve chose and why.
type Resolution struct {
	// Name is the tokenizer's id or path ("words", "openai/gpt-oss-120b",
	// the --tokenizer path given).
	Name string
	// Path is the tokenizer.json (or .json.gz) loaded; empty for words.
	Path string
	// Source says how it was chosen: "--tokenizer", "--tokenizer words",
	// "registry: gpt-oss → openai/gpt-oss-120b", "model name org/name".
	Source string
	// Looked lists every file and directory examined, in order.
	Looked []string
	// Compiled is LoadCached's outcome when a cache directory was given
	// (CompiledHit, CompiledWritten, or why the entry was rebuilt or not
	// stored); empty when the tokenizer was parsed without the cache. A
	// hit has read the entry's header only: the tables are read on first
	// use (Tokenizer.Load), an entry damaged past its header rebuilt then.
	Compiled string
}

// registry maps a substring of the lower-cased model name to the Hugging
// Face tokenizer id, first match wins, as the reference detector's
// registry does (detector.md §2.3): any "deepseek" model counts with the R1
// tokenizer.
var registry = []struct{ key, id string }{
	{"kimi-k3", "moonshotai/Kimi-K3"},
	{"kimi-k2", "moonshotai/Kimi-K2-Instruct"},
	{"gpt-oss", "openai/gpt-oss-120b"},
	{"deepseek-r1", "deepseek-ai/DeepSeek-R1"},
	{"dsr1", "deepseek-ai/DeepSeek-R1"},
	{"deepseek", "deepseek-ai/DeepSeek-R1"},
}

// tokenizerFileNames are the names looked for in a directory, in order.
var tokenizerFileNames = []string{"tokenizer.json", "tokenizer.json.gz"}

// Resolve finds the counter for --tokenizer SPEC and the run's model name.
// It never downloads.
//
// SPEC may be "words" (Words), a tokenizer.json or tokenizer.json.gz file,
// a directory holding one, or a Hugging Face model id ORG/NAME looked up in
// the local Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub,
// $XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub; the snapshot
// refs/main points to first). With SPEC empty, the model name picks the
// id: "words" is Words, else the first registry key it contains
// (lower-cased), else the name itself if it is an ORG/NAME id. A model name comes from the run's
// config.yaml, written by whoever made the archive, so it is only ever
// looked up in the Hugging Face cache, never opened as a path: only the
// user's --tokenizer may name a file.
//
// Every error is one line starting "tokenizer: ".
func Resolve(spec, modelName string) (Counter, Resolution, error) {
	return ResolveCached(spec, modelName, "")
}

// ResolveCached is Resolve loading a tokenizer file through the compiled
// cache under cacheDir (LoadCached); with cacheDir empty it is Resolve.
func ResolveCached(spec, modelName, cacheDir string) (Counter, Resolution, error) {
	c, res, err := resolve(spec, modelName, cacheDir)
	if err != nil {
		return nil, res, resolveError{err}
	}
	return c, res, nil
}

func resolve(spec, modelName, cacheDir string) (Counter, Resolution, error) {
	var res Resolution
	if spec == "words" {
		res.Name, res.Source = "words", "--tokenizer words"
		return Words{}, res, nil
	}
	if spec == "" && modelName == "words" {
		// A run that declares its text whitespace words (synth's runs:
		// model_params.tokenizer_name: words).
		res.Name, res.Source = "words", "the run's tokenizer_name: words"
		return Words{}, res, nil
	}
	target := spec
	res.Source = "--tokenizer"
	if spec == "" {
		lower := strings.ToLower(modelName)
		for _, r := range registry {
			if strings.Contains(lower, r.key) {
				target = r.id
				res.Source = "registry: " + r.key + " → " + r.id
				break
			}
		}
		if target == "" {
			if !strings.Contains(modelName, "/") {
				keys := make([]string, len(registry))
				for i, r := range registry {
					keys[i] = r.key
				}
				return nil, res, fmt.Errorf("could not resolve a tokenizer for model %q: it matches no registry entry (%s) and is not an ORG/NAME id; pass --tokenizer PATH|DIR|ORG/NAME, or --tokenizer words for whitespace-separated words",
					modelName, strings.Join(keys, ", "))
			}
			if err := checkHubID(modelName); err != nil {
				return nil, res, fmt.Errorf("model name %q from the run: %w; pass --tokenizer PATH|DIR|ORG/NAME", modelName, err)
			}
			target = modelName
			res.Source = "model name " + modelName
		}
	}
	res.Name = target
	var (
		path string
		err  error
	)
	if spec != "" {
		path, err = findTokenizerFile(target, res.Source, &res.Looked)
	} else {
		path, err = findInHubCache(target, res.Source, &res.Looked)
	}
	if err != nil {
		return nil, res, err
	}
	var tok *Tokenizer
	if cacheDir != "" {
		tok, res.Compiled, err = loadCachedDeferred(path, cacheDir)
	} else {
		tok, err = Load(path)
	}
	if err != nil {
		return nil, res, err
	}
	res.Path = path
	return tok, res, nil
}

// resolveError is an error of Resolve: one line, "tokenizer: " once.
type resolveError struct{ err error }

func (e resolveError) Error() string {
	msg := e.err.Error()
	if !strings.HasPrefix(msg, "tokenizer: ") {
		msg = "tokenizer: " + msg
	}
	return strings.ReplaceAll(msg, "\n", "; ")
}

func (e resolveError) Unwrap() error { return e.err }

// findTokenizerFile turns a path, directory or model id into the path of a
// tokenizer file, appending what it examines to looked.
// via says how target was chosen, for the error when it is not found.
func findTokenizerFile(target, via string, looked *[]string) (string, error) {
	if info, err := os.Stat(target); err == nil {
		*looked = append(*looked, target)
		if !info.IsDir() {
			return target, nil
		}
		if path, ok := findInDir(target, looked); ok {
			return path, nil
		}
		return "", fmt.Errorf("directory %s holds no %s; pass the tokenizer file itself or a directory holding one",
			target, strings.Join(tokenizerFileNames, " or "))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	*looked = append(*looked, target+" (no such file or directory)")
	if checkHubID(target) != nil {
		return "", fmt.Errorf("%q is neither a file, a directory, nor a Hugging Face id ORG/NAME", target)
	}
	return findInHubCache(target, via, looked)
}

// checkHubID accepts a Hugging Face repository id ORG/NAME: two non-empty
// parts of letters, digits, '-', '_' and '.', neither starting with '.'
// nor holding "..", so the cache directory it names stays inside the
// cache.
func checkHubID(id string) error {
	org, name, ok := strings.Cut(id, "/")
	if !ok || org == "" || name == "" {
		return errors.New("not a Hugging Face id ORG/NAME")
	}
	for _, part := range []string{org, name} {
		if strings.HasPrefix(part, ".") || strings.Contains(part, "..") {
			return fmt.Errorf("%q is not a Hugging Face id part", part)
		}
		for _, c := range part {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				return fmt.Errorf("%q is not a Hugging Face id part (character %q)", part, c)
			}
		}
	}
	return nil
}

// findInHubCache looks for the tokenizer file of the Hugging Face id
// target in the local hub caches; via says how target was chosen.
func findInHubCache(target, via string, looked *[]string) (string, error) {
	repoDir := "models--" + strings.ReplaceAll(target, "/", "--")
	caches := hubCaches()
	for _, cache := range caches {
		dir := filepath.Join(cache, repoDir)
		if _, err := os.Stat(dir); err != nil {
			*looked = append(*looked, dir+" (absent)")
			continue
		}
		for _, snapshot := range snapshotDirs(dir) {
			if path, ok := findInDir(snapshot, looked); ok {
				return path, nil
			}
		}
	}
	return "", fmt.Errorf("no local tokenizer for %s (%s; nothing is downloaded); looked in %s; fix: download it into the cache "+
		"(huggingface-cli download %s tokenizer.json tokenizer_config.json), set HF_HUB_CACHE or HF_HOME to the cache that has it, "+
		"or pass --tokenizer with a tokenizer.json path or directory (--tokenizer words counts whitespace-separated words)",
		target, via, strings.Join(*looked, ", "), target)
}

func findInDir(dir string, looked *[]string) (string, bool) {
	for _, name := range tokenizerFileNames {
		path := filepath.Join(dir, name)
		*looked = append(*looked, path)
		if info, err := os.Stat(path); err == nil && !info.IsDir() {
			return path, true
		}
	}
	return "", false
}

// hubCaches lists the Hugging Face hub cache directories in the order
// huggingface_hub consults its settings, without duplicates.
func hubCaches() []string {
	var dirs []string
	add := func(dir string) {
		if dir != "" && !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	add(os.Getenv("HF_HUB_CACHE"))
	add(os.Getenv("HUGGINGFACE_HUB_CACHE"))
	if home := os.Getenv("HF_HOME"); home != "" {
		add(filepath.Join(home, "hub"))
	}
	if xdg := os.Getenv("XDG_CACHE_HOME"); xdg != "" {
		add(filepath.Join(xdg, "huggingface", "hub"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		add(filepath.Join(home, ".cache", "huggingface", "hub"))
	}
	return dirs
}

// snapshotDirs returns the snapshot refs/main names first, then the others
// by name.
func snapshotDirs(repoDir string) []string {
	var dirs []string
	if ref, err := safeopen.ReadFile(filepath.Join(repoDir, "refs", "main"), "a hub cache ref", safeopen.LimitHubRef); err == nil {
		if hash := strings.TrimSpace(string(ref)); hash != "" && !strings.ContainsAny(hash, `/\`) {
			dirs = append(dirs, filepath.Join(repoDir, "snapshots", hash))
		}
	}
	entries, _ := os.ReadDir(filepath.Join(repoDir, "snapshots"))
	for _, e := range entries {
		dir := filepath.Join(repoDir, "snapshots", e.Name())
		if e.IsDir() && !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}
