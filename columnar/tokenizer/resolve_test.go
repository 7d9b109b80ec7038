package tokenizer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHubCache builds an HF hub cache in a temporary directory, points
// every cache setting at it and installs the tiny fixture as the given
// model ids' tokenizer.json.
func fakeHubCache(t *testing.T, ids ...string) string {
	t.Helper()
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	t.Setenv("HUGGINGFACE_HUB_CACHE", "")
	t.Setenv("HF_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", t.TempDir())
	for _, id := range ids {
		snap := filepath.Join(cache, "models--"+strings.ReplaceAll(id, "/", "--"), "snapshots", "0123abcd")
		if err := os.MkdirAll(snap, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(snap, "tokenizer.json"), tinyJSON(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cache
}

// TestResolveRegistry checks the model-name registry of detector.md §2.3:
// first substring match on the lower-cased name, any "deepseek" → R1, and
// a name containing '/' used verbatim.
func TestResolveRegistry(t *testing.T) {
	cache := fakeHubCache(t, "openai/gpt-oss-120b", "deepseek-ai/DeepSeek-R1", "moonshotai/Kimi-K2-Instruct", "meta-llama/Llama-3.1-8B")
	tests := []struct {
		model, wantSource, wantID string
	}{
		{"gpt-oss-120b", "registry: gpt-oss → openai/gpt-oss-120b", "openai/gpt-oss-120b"},
		{"DeepSeek-R1-0528", "registry: deepseek-r1 → deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1"},
		{"dsr1-fp4", "registry: dsr1 → deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1"},
		{"/models/DeepSeek-V3", "registry: deepseek → deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1"},
		{"Kimi-K2-Instruct", "registry: kimi-k2 → moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Instruct"},
		{"meta-llama/Llama-3.1-8B", "model name meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			c, res, err := Resolve("", tt.model)
			if err != nil {
				t.Fatal(err)
			}
			if res.Source != tt.wantSource || res.Name != tt.wantID {
				t.Errorf("Source, Name = %q, %q, want %q, %q", res.Source, res.Name, tt.wantSource, tt.wantID)
			}
			wantPath := filepath.Join(cache, "models--"+strings.ReplaceAll(tt.wantID, "/", "--"), "snapshots", "0123abcd", "tokenizer.json")
			if res.Path != wantPath {
				t.Errorf("Path = %q, want %q", res.Path, wantPath)
			}
			if _, ok := c.(*Tokenizer); !ok {
				t.Errorf("counter is %T, want *Tokenizer", c)
			}
		})
	}
}

func TestResolveSpec(t *testing.T) {
	fakeHubCache(t, "org/model")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tinyJSON(t), 0o644); err != nil {
		t.Fatal(err)
	}
	c, res, err := Resolve("words", "gpt-oss")
	if err != nil || c != (Words{}) || res.Source != "--tokenizer words" {
		t.Errorf("Resolve(words) = %v, %+v, %v", c, res, err)
	}
	for _, spec := range []string{tinyPath, dir, "org/model"} {
		c, res, err := Resolve(spec, "gpt-oss-120b")
		if err != nil {
			t.Errorf("Resolve(%q): %v", spec, err)
			continue
		}
		if res.Source != "--tokenizer" || res.Path == "" || c.Count("hello world") != 2 {
			t.Errorf("Resolve(%q) = %+v, count %d", spec, res, c.Count("hello world"))
		}
	}
}

// TestResolveRefsMain checks that the snapshot refs/main names wins over
// other snapshots, as huggingface_hub resolves revisions.
func TestResolveRefsMain(t *testing.T) {
	cache := fakeHubCache(t)
	repo := filepath.Join(cache, "models--org--m")
	for _, snap := range []string{"aaaa", "ffff"} {
		os.MkdirAll(filepath.Join(repo, "snapshots", snap), 0o755)
		os.WriteFile(filepath.Join(repo, "snapshots", snap, "tokenizer.json"), tinyJSON(t), 0o644)
	}
	os.MkdirAll(filepath.Join(repo, "refs"), 0o755)
	os.WriteFile(filepath.Join(repo, "refs", "main"), []byte("ffff\n"), 0o644)
	_, res, err := Resolve("org/m", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(repo, "snapshots", "ffff", "tokenizer.json"); res.Path != want {
		t.Errorf("Path = %s, want %s", res.Path, want)
	}
}

func TestResolveErrors(t *testing.T) {
	cache := fakeHubCache(t)
	_, _, err := Resolve("", "llama-3")
	if err == nil || !strings.Contains(err.Error(), "--tokenizer") || !strings.Contains(err.Error(), "gpt-oss") {
		t.Errorf("Resolve(\"\", llama-3) error = %v, want advice naming --tokenizer and the registry", err)
	}
	_, res, err := Resolve("", "gpt-oss-20b")
	if err == nil {
		t.Fatal("Resolve with an empty cache succeeded")
	}
	wantDir := filepath.Join(cache, "models--openai--gpt-oss-120b")
	if !strings.Contains(err.Error(), wantDir) || !strings.Contains(err.Error(), "huggingface-cli download openai/gpt-oss-120b") {
		t.Errorf("error does not name %s and the fix:\n%v", wantDir, err)
	}
	if len(res.Looked) != 2 { // HF_HUB_CACHE, ~/.cache: a model name is never a path
		t.Errorf("Looked = %q, want 2 places", res.Looked)
	}
	// One line, "tokenizer: " once, saying how the id was chosen (issue 20:
	// five lines with a doubled prefix).
	if msg := err.Error(); strings.Contains(msg, "\n") || strings.Count(msg, "tokenizer: ") != 1 ||
		!strings.HasPrefix(msg, "tokenizer: no local tokenizer for openai/gpt-oss-120b (registry: gpt-oss → openai/gpt-oss-120b;") {
		t.Errorf("error is not one line with one prefix and the registry mapping:\n%s", msg)
	}
	if _, _, err := Resolve(t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "holds no tokenizer.json") {
		t.Errorf("empty directory: error = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "tokenizer.json")
	os.WriteFile(bad, tinyWith(t, `"type": "BPE"`, `"type": "Unigram"`), 0o644)
	if _, _, err := Resolve(bad, ""); err == nil || !strings.Contains(err.Error(), `unsupported: model "Unigram"`) {
		t.Errorf("unsupported model: error = %v", err)
	}
	var pathErr *os.PathError
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); !errors.As(err, &pathErr) {
		t.Errorf("Load(missing) error = %v, want a *os.PathError inside", err)
	}
}

// TestResolveModelNameNeverAPath reproduces issue 17 item 2: without
// --tokenizer, config.yaml's model name was first tried as a filesystem
// path, so an archive could make the tool load any file as a tokenizer.
// Now a model name only ever names a Hugging Face cache entry; the user's
// --tokenizer still takes a path.
func TestResolveModelNameNeverAPath(t *testing.T) {
	fakeHubCache(t)
	tiny := tinyJSON(t)
	cwd := t.TempDir()
	t.Chdir(cwd)
	for _, rel := range []string{"evil/model", "openai/gpt-oss-120b"} {
		if err := os.MkdirAll(rel, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rel, "tokenizer.json"), tiny, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(cwd, "evil", "model")
	for _, model := range []string{"evil/model", "gpt-oss-120b", abs, "../evil/model", "evil/../model"} {
		_, res, err := Resolve("", model)
		if err == nil {
			t.Errorf("Resolve(\"\", %q) loaded %s; a model name must not be opened as a path", model, res.Path)
			continue
		}
		for _, l := range res.Looked {
			if !strings.Contains(l, "models--") {
				t.Errorf("Resolve(\"\", %q) examined %q, outside the hub cache", model, l)
			}
		}
	}
	if _, res, err := Resolve("evil/model", ""); err != nil || res.Path != filepath.Join("evil", "model", "tokenizer.json") {
		t.Errorf("--tokenizer evil/model (a user's path) = %+v, %v", res, err)
	}
}

// A run whose config.yaml declares tokenizer_name "words" (synth's runs)
// counts whitespace words with no --tokenizer, and says where that came
// from; --tokenizer still overrides it, and a name merely containing
// "words" is not the built-in.
func TestResolveRunDeclaresWords(t *testing.T) {
	c, res, err := Resolve("", "words")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(Words); !ok || res.Source != "the run's tokenizer_name: words" {
		t.Errorf("Resolve(\"\", words) = %T, source %q", c, res.Source)
	}
	if n := c.Count("three short words"); n != 3 {
		t.Errorf("Count = %d, want 3", n)
	}
	if _, _, err := Resolve("", "mywords"); err == nil {
		t.Error(`model "mywords" resolved to a tokenizer`)
	}
}
