package sinks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// writeRows writes rows as one part file of dir and returns its path.
func writeRows(t *testing.T, dir string, rows []Row, mem memory.Allocator) string {
	t.Helper()
	w := newWriter(t, NewRowWriter, WriterOptions{Dir: dir, Shard: "0of1", RowsPerGroup: 2})
	writeAndClose(t, w, rows)
	if len(w.Files()) != 1 {
		t.Fatalf("%d part files, want 1", len(w.Files()))
	}
	return w.Files()[0]
}

// DropRows takes the selected rows out of a part file: what remains is
// the same table as a file written with only the kept rows (every column,
// NaNs included) and the schema's version metadata survives, the mode is the part files' 0644 under the umask, and no
// temporary is left. Nothing selected leaves the file's bytes alone;
// everything selected removes it.
func TestDropRows(t *testing.T) {
	mem := checkedMem(t)
	var all, kept []Row
	for i := range 7 {
		r := testRow(i)
		if i == 1 || i == 2 || i == 5 {
			r.Outcome.Status, r.Outcome.Reason = "error", "load: no tokenizer"
		} else {
			kept = append(kept, r)
		}
		all = append(all, r)
	}
	dir := filepath.Join(t.TempDir(), "rows")
	path := writeRows(t, dir, all, mem)
	want := readTables(t, writeRowsDir(t, kept, mem), mem)[0]
	defer want.Release()

	states, err := ReadRowStates(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != 7 || states[all[1].Key()] != (RowState{Status: "error", File: path}) || states[all[0].Key()].Status != "windowable" {
		t.Fatalf("row states before: %v", states)
	}
	isError := func(k Key) bool { return states[k].Status == "error" }
	n, err := DropRows(context.Background(), path, isError)
	if err != nil || n != 3 {
		t.Fatalf("DropRows = %d, %v; want 3 dropped", n, err)
	}
	got := readTables(t, dir, mem)
	defer got[0].Release()
	if !array.TableApproxEqual(got[0], want, array.WithNaNsEqual(true)) {
		t.Errorf("rewritten file differs from a file of the kept rows:\ngot  %v\nwant %v", got[0], want)
	}
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := pf.MetaData().KeyValueMetadata().FindValue("steadysweep.schema_version"); v == nil || *v != strconv.Itoa(int(SchemaVersion)) {
		t.Errorf("schema version metadata lost: %v", pf.MetaData().KeyValueMetadata())
	}
	pf.Close()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after the rewrite, want the part file alone", len(entries))
	}
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644&^os.FileMode(umask) {
		t.Errorf("rewritten file mode %v, want 0644 under umask %o", st.Mode().Perm(), umask)
	}

	before, _ := os.ReadFile(path)
	if n, err := DropRows(context.Background(), path, isError); err != nil || n != 0 {
		t.Fatalf("second DropRows = %d, %v; want 0", n, err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a file with nothing to drop was rewritten")
	}
	if n, err := DropRows(context.Background(), path, func(Key) bool { return true }); err != nil || n != 4 {
		t.Fatalf("dropping everything = %d, %v; want 4", n, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a file with no rows left is still there: %v", entries)
	}
}

func writeRowsDir(t *testing.T, rows []Row, mem memory.Allocator) string {
	dir := filepath.Join(t.TempDir(), "rows")
	writeRows(t, dir, rows, mem)
	return dir
}

// DropRows writes only through internal/atomicfile: a symbolic link planted
// where the old code put its temporary (".<name>.retry.tmp", opened with
// O_TRUNC, so it wrote through the link) is left alone with its target's
// bytes, and a part file that is itself a link to a file outside the
// table is refused, its target untouched.
func TestDropRowsNeverThroughALink(t *testing.T) {
	mem := checkedMem(t)
	rows := []Row{testRow(0), testRow(1), testRow(2)}
	rows[1].Outcome.Status, rows[1].Outcome.Reason = "error", "load: no tokenizer"
	isError := func(k Key) bool { return k == rows[1].Key() }

	dir := filepath.Join(t.TempDir(), "rows")
	path := writeRows(t, dir, rows, mem)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, "."+filepath.Base(path)+".retry.tmp")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	if n, err := DropRows(context.Background(), path, isError); err != nil || n != 1 {
		t.Fatalf("DropRows = %d, %v; want 1 dropped", n, err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "not yours" {
		t.Fatalf("the planted link's target was written (%d bytes)", len(b))
	}
	if fi, err := os.Lstat(planted); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the planted link was replaced: %v", err)
	}

	// The part file itself a link to a rows file elsewhere.
	outside := writeRows(t, filepath.Join(t.TempDir(), "rows"), rows, mem)
	before, _ := os.ReadFile(outside)
	linked := filepath.Join(dir, "part-0of1-9.parquet")
	if err := os.Symlink(outside, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := DropRows(context.Background(), linked, isError); err == nil {
		t.Fatal("DropRows rewrote a part file that is a symbolic link")
	}
	if after, _ := os.ReadFile(outside); !bytes.Equal(before, after) {
		t.Fatal("the linked file's target changed")
	}
	if fi, err := os.Lstat(linked); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
}
