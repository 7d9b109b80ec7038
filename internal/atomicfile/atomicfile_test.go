package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// entries lists dir's names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteFileReplaces: a new file and a replaced one hold exactly the
// bytes written, and no temporary is left beside them.
func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	for _, data := range []string{"first", "second, longer"} {
		if err := WriteFile(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, p); got != data {
			t.Errorf("content %q, want %q", got, data)
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Errorf("directory holds %v", names)
		}
	}
}

// TestSymlinkAtTarget: a symbolic link at the target is refused and the
// file it points to is untouched.
func TestSymlinkAtTarget(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.png")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(link, []byte("attack"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err %v, want a refusal naming the symbolic link", err)
	}
	if got := readString(t, victim); got != "precious" {
		t.Errorf("link target overwritten: %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v %v", fi, err)
	}
}

// TestSymlinkAtTempName: a link planted at the temporary name is never
// written through; the write takes another name and succeeds.
func TestSymlinkAtTempName(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	planted := ".out.png.planted.tmp"
	if err := os.Symlink(victim, filepath.Join(dir, planted)); err != nil {
		t.Fatal(err)
	}
	old := tempName
	defer func() { tempName = old }()
	calls := 0
	tempName = func(base string) string {
		calls++
		if calls == 1 {
			return planted // as an attacker predicting the name would have it
		}
		return old(base)
	}
	out := filepath.Join(dir, "out.png")
	if err := WriteFile(out, []byte("image")); err != nil {
		t.Fatal(err)
	}
	if calls < 2 {
		t.Errorf("the planted name was used (%d names tried)", calls)
	}
	if got := readString(t, victim); got != "precious" {
		t.Errorf("written through the planted link: %q", got)
	}
	if got := readString(t, out); got != "image" {
		t.Errorf("output %q", got)
	}
}

// TestNonRegularTargets: a directory, a named pipe and a character device
// (reached through /dev/stdout's link, and directly) are refused with the
// kind named, and nothing is created beside a refused target.
func TestNonRegularTargets(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "adir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{sub: "a directory", fifo: "a named pipe"}
	if fi, err := os.Lstat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		cases["/dev/null"] = "a device"
	}
	if fi, err := os.Lstat("/dev/stdout"); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		cases["/dev/stdout"] = "a symbolic link"
	}
	for path, want := range cases {
		err := WriteFile(path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err %v, want a refusal naming %q", path, err, want)
		}
	}
	if names := entries(t, dir); len(names) != 2 {
		t.Errorf("directory holds %v after refusals", names)
	}
}

// TestModeUnderUmask: new files are 0644 masked by the umask (022 → 0644,
// 077 → 0600), not os.CreateTemp's fixed 0600.
func TestModeUnderUmask(t *testing.T) {
	for _, c := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o077, 0o600}, {0o002, 0o644}} {
		old := syscall.Umask(c.umask)
		p := filepath.Join(t.TempDir(), "f")
		err := WriteFile(p, []byte("x"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("umask %03o: mode %03o, want %03o", c.umask, got, c.want)
		}
	}
}

// TestFailureCleansUp: when fill fails, or the write is aborted, or the
// target turns into a directory before Commit, no file appears under the
// target's name and no temporary is left; an existing target keeps its
// bytes.
func TestFailureCleansUp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	boom := errors.New("boom")
	if err := WriteWith(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("err %v, want fill's", err)
	}
	if names := entries(t, dir); len(names) != 0 {
		t.Errorf("after a failed fill: %v", names)
	}

	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := f.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := f.Abort(); err != nil {
		t.Errorf("second Abort: %v", err)
	}
	if got := readString(t, p); got != "old" {
		t.Errorf("aborted write changed the target: %q", got)
	}

	q := filepath.Join(dir, "later")
	g, err := Create(q)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(q, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(); err == nil || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("commit over a new directory: %v", err)
	}
	if names := entries(t, dir); len(names) != 2 {
		t.Errorf("after a refused commit: %v", names)
	}
}
