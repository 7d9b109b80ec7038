package main

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Test values of the Dockerfile's build arguments: the binary must report
// them, which shows its -ldflags reached the link.
const testVersion, testCommit = "v0.0.0-dockerfile-test", "d0c4e7f"

// dockerfile is the repository's Dockerfile as instructions, with
// continuation lines joined and comments dropped.
type dockerfile struct {
	lines []string
}

func readDockerfile(t testing.TB) dockerfile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var d dockerfile
	cur := ""
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") && cur == "" {
			continue
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cur += s + " "
			continue
		}
		if cur += l; strings.TrimSpace(cur) != "" {
			d.lines = append(d.lines, strings.TrimSpace(cur))
		}
		cur = ""
	}
	return d
}

// instructions returns the arguments of every instruction named op.
func (d dockerfile) instructions(op string) []string {
	var out []string
	for _, l := range d.lines {
		if name, rest, _ := strings.Cut(l, " "); strings.EqualFold(name, op) {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
}

// goBuild returns the environment assignments and the arguments after
// "go" of the Dockerfile's `RUN … go build …` line, its ${ARG}s expanded
// from args (else the ARG defaults), the -o target replaced by out.
func (d dockerfile) goBuild(t testing.TB, args map[string]string, out string) (env, goArgs []string) {
	t.Helper()
	vars := map[string]string{}
	for _, a := range d.instructions("ARG") {
		k, v, _ := strings.Cut(a, "=")
		vars[k] = v
	}
	for k, v := range args {
		vars[k] = v
	}
	var run string
	for _, r := range d.instructions("RUN") {
		if strings.Contains(r, "go build") {
			if run != "" {
				t.Fatal("Dockerfile: more than one go build line")
			}
			run = r
		}
	}
	if run == "" {
		t.Fatal("Dockerfile: no RUN … go build line")
	}
	words, err := shellWords(run, vars)
	if err != nil {
		t.Fatalf("Dockerfile build line %q: %v", run, err)
	}
	i := 0
	for ; i < len(words) && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(words[i]); i++ {
		env = append(env, words[i])
	}
	if i+1 >= len(words) || words[i] != "go" || words[i+1] != "build" {
		t.Fatalf("Dockerfile build line %q: want [VAR=value…] go build …", run)
	}
	goArgs = words[i+1:]
	for j := range goArgs {
		if goArgs[j] == "-o" && j+1 < len(goArgs) {
			goArgs[j+1] = out
			return env, goArgs
		}
	}
	t.Fatalf("Dockerfile build line %q has no -o", run)
	return nil, nil
}

// shellWords splits s as sh would for the forms a Dockerfile build line
// uses: blanks between words, '…' literal, "…" with ${VAR} and $VAR
// expanded, as in bare words. Anything else (;, &&, `, $(…)) is refused.
func shellWords(s string, vars map[string]string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, byte(0)
	expand := func(i int) (int, error) { // s[i] == '$'
		name := ""
		switch {
		case i+1 < len(s) && s[i+1] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return 0, fmt.Errorf("unclosed ${")
			}
			name, i = s[i+2:i+end], i+end+1
		default:
			m := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`).FindString(s[i+1:])
			if m == "" {
				return 0, fmt.Errorf("unsupported $ at %d", i)
			}
			name, i = m, i+1+len(m)
		}
		v, ok := vars[name]
		if !ok {
			return 0, fmt.Errorf("${%s} is not an ARG", name)
		}
		cur.WriteString(v)
		return i, nil
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case quote == '\'' || quote == '"' && c != '$':
			// Inside quotes: the closing quote ends them, any other byte
			// is literal; "$" still expands inside double quotes (below).
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
			i++
		case c == '$':
			var err error
			if i, err = expand(i); err != nil {
				return nil, err
			}
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
			i++
		case c == '\'' || c == '"':
			quote, inWord = c, true
			i++
		case strings.IndexByte(";&|`()<>\\", c) >= 0:
			return nil, fmt.Errorf("unsupported shell syntax %q", c)
		default:
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// buildAsDockerfile builds cmd/steadysweep into out with the Dockerfile's
// own build line, from the repository root (the image's WORKDIR holds the
// whole repository).
func buildAsDockerfile(t testing.TB, out string) ([]byte, error) {
	t.Helper()
	env, args := readDockerfile(t).goBuild(t, map[string]string{"VERSION": testVersion, "COMMIT": testCommit}, out)
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}

// The Dockerfile builds what the Kubernetes example runs: a multi-stage
// build whose last stage is not the Go toolchain and runs as a non-root
// user, building with CGO_ENABLED=0; the example's image is the tag the
// Dockerfile says to build. TestDockerfileBuild runs its build line.
func TestDockerfile(t *testing.T) {
	d := readDockerfile(t)
	froms := d.instructions("FROM")
	if len(froms) < 2 || strings.Contains(froms[len(froms)-1], "golang") {
		t.Errorf("FROM %q: want a multi-stage build whose last stage is not the Go toolchain", froms)
	}
	users := d.instructions("USER")
	if len(users) == 0 {
		t.Fatal("Dockerfile: no USER: the image would run as root")
	}
	if u, _, _ := strings.Cut(users[len(users)-1], ":"); u == "root" || u == "0" {
		t.Errorf("USER %s: want a non-root user", users[len(users)-1])
	}
	env, _ := d.goBuild(t, nil, "x")
	if !slices.Contains(env, "CGO_ENABLED=0") {
		t.Errorf("build line environment %q: want CGO_ENABLED=0 (a static binary)", env)
	}

	b, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "k8s-indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct{ Image string } `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(b, &job); err != nil || len(job.Spec.Template.Spec.Containers) == 0 {
		t.Fatalf("k8s example: %v", err)
	}
	image := job.Spec.Template.Spec.Containers[0].Image
	df, _ := os.ReadFile(filepath.Join(repoRoot(t), "Dockerfile"))
	if !strings.Contains(string(df), "docker build -t "+image+" ") {
		t.Errorf("the k8s example runs image %q, which the Dockerfile does not say to build (docker build -t %s …)", image, image)
	}
}

// TestDockerfileBuild builds cmd/steadysweep with the Dockerfile's go build
// line exactly (test build arguments; docker itself has no engine in CI):
// a static binary that reports the version and commit it was given. That
// build shares nothing with go test's cache (CGO_ENABLED=0 -trimpath), so
// it runs under make docker-check (CI runs it), not make test.
func TestDockerfileBuild(t *testing.T) {
	if os.Getenv("STEADYSWEEP_DOCKERFILE_BUILD") == "" {
		t.Skip("the Dockerfile's cold CGO_ENABLED=0 -trimpath build takes minutes: run by make docker-check (STEADYSWEEP_DOCKERFILE_BUILD=1)")
	}
	bin := filepath.Join(t.TempDir(), "steadysweep")
	if out, err := buildAsDockerfile(t, bin); err != nil {
		t.Fatalf("the Dockerfile's go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary asks for a dynamic loader: not static")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary links %v: not static", libs)
	}
	want := fmt.Sprintf("steadysweep %s (%s)\n", testVersion, testCommit)
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("steadysweep %s = %q, %v; want %q", arg, out, err, want)
		}
	}
}

func TestShellWords(t *testing.T) {
	vars := map[string]string{"V": "1.2", "C": "abc"}
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{`A=0 go build -ldflags "-s -X m.v=${V} -X m.c=$C" -o /out/x ./cmd`, []string{"A=0", "go", "build", "-ldflags", "-s -X m.v=1.2 -X m.c=abc", "-o", "/out/x", "./cmd"}, false},
		{`go  build '-x $V'  "a"b`, []string{"go", "build", "-x $V", "ab"}, false},
		{`go build && rm -rf /`, nil, true},
		{`go build ${NOPE}`, nil, true},
		{`go build "open`, nil, true},
	} {
		got, err := shellWords(tc.in, vars)
		if (err != nil) != tc.err || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("shellWords(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}
