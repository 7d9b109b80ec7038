//go:build unix

package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/corpora"
)

// TestOneWriterPerOutput reproduces issue 17 item 4: two sweeps into one
// -o both picked part sequence 0, the second rename replaced the first's
// file (in 11 of 20 trials both exited 0 with one archive's rows gone),
// and the second deleted the first's live temporaries. Now, while a sweep
// runs, a second one into the same directory fails at once naming it and
// the holder's pid, touching nothing; the first completes with all its
// rows. Shards of one sweep share the directory; a second copy of one
// shard is refused.
func TestOneWriterPerOutput(t *testing.T) {
	first, mem := fakeSweep(t)
	runs, cs, out := first.Runs, first.Configs, first.Out

	// The first sweep holds a run in its loader until released.
	hold, release := make(chan struct{}), make(chan struct{})
	load := first.Load
	first.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if ref.Rel == runs[0].Rel {
			close(hold)
			<-release
		}
		return load(ctx, ref)
	}
	done := make(chan error, 1)
	go func() { _, err := Run(context.Background(), first); done <- err }()
	<-hold

	live := filepath.Join(out, "rows", ".part-0of1-000099.parquet.tmp") // as a live writer's
	if err := os.WriteFile(live, []byte("live"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, shard := range []Shard{{0, 1}, {1, 2}} {
		second := fakeOptions(runs[:3], cs, out)
		second.Shard = shard
		// The lock is taken without waiting (LOCK_NB): a sweep that waited
		// for it would wait here for ever, as the first holds it until
		// release. A hang guard, not a speed limit (a loaded machine).
		refused := make(chan error, 1)
		go func() { _, err := Run(context.Background(), second); refused <- err }()
		var err error
		select {
		case err = <-refused:
		case <-time.After(3 * time.Minute):
			t.Fatalf("second sweep (shard %s) waited for the lock", shard)
		}
		want := fmt.Sprintf("output directory %s is in use by another sweep (pid %d) (lock %s): wait for it to finish, or use another -o",
			out, os.Getpid(), filepath.Join(out, ".steadysweep.lock"))
		if err == nil || err.Error() != want {
			t.Errorf("second sweep (shard %s): %v\nwant %s", shard, err, want)
		}
	}
	if b, err := os.ReadFile(live); err != nil || string(b) != "live" {
		t.Errorf("the live temporary was touched: %q, %v", b, err)
	}
	os.Remove(live)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rows := readRows(t, filepath.Join(out, "rows"), mem); len(rows) != len(runs)*len(cs) {
		t.Errorf("first sweep: %d rows, want %d", len(rows), len(runs)*len(cs))
	}

	// Shards: two of one sweep run side by side; a copy of one is refused.
	sharded := t.TempDir()
	hold, release = make(chan struct{}), make(chan struct{})
	s0 := fakeOptions(runs, cs, sharded)
	s0.Shard = Shard{0, 2}
	var held string
	for _, r := range runs {
		if s0.Shard.Owns(r) {
			held = r.Rel
			break
		}
	}
	load = s0.Load
	s0.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if ref.Rel == held {
			close(hold)
			<-release
		}
		return load(ctx, ref)
	}
	go func() { _, err := Run(context.Background(), s0); done <- err }()
	<-hold
	s1 := fakeOptions(runs, cs, sharded)
	s1.Shard = Shard{1, 2}
	if _, err := Run(context.Background(), s1); err != nil {
		t.Errorf("shard 1/2 beside 0/2: %v", err)
	}
	dup := fakeOptions(runs, cs, sharded)
	dup.Shard = Shard{0, 2}
	if _, err := Run(context.Background(), dup); err == nil || !strings.Contains(err.Error(), "shard 0of2 of output directory "+sharded+" is in use by another sweep") {
		t.Errorf("a second shard 0/2: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rows := readRows(t, filepath.Join(sharded, "rows"), mem); len(rows) != len(runs)*len(cs) {
		t.Errorf("shards: %d rows, want %d", len(rows), len(runs)*len(cs))
	}

	// After the holders are gone the directory is free again (resume).
	again := fakeOptions(runs, cs, out)
	again.Resume = true
	if sum, err := Run(context.Background(), again); err != nil || sum.Skipped != len(runs) {
		t.Errorf("resume after the first sweep: %+v, %v", sum, err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{".steadysweep.lock", "rows", "series"}) {
		t.Errorf("output directory holds %v", names)
	}
}

// TestRunJobsCapped: Options.Jobs of a billion made a results channel of
// a billion slots (64 GB); it is capped at MaxJobs.
func TestRunJobsCapped(t *testing.T) {
	o, _ := fakeSweep(t)
	o.Jobs = 1_000_000_000
	sum, err := Run(context.Background(), o)
	if err != nil || sum.Analysed != len(o.Runs) {
		t.Fatalf("%+v, %v", sum, err)
	}
}
