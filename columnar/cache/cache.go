package cache

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// Cache stores ingested runs as files of its own layout (cacheentry.go:
// raw little-endian columns, the summary and run info, a trailing
// XXH3-64) so a run is decoded (and tokenized) once, and a hit's columns
// are used where they lie, mapped (where the platform allows) or read.
//
// An entry holds the decoded columns of one events file under one set of
// decode options, and is found in two steps, neither of which reads the
// events file:
//
//  1. Identity: the events file's device, inode, size, mtime and ctime
//     name a small file under ids/ holding the file's digests (digest.go),
//     recorded when it was decoded (hashed while it was read, not
//     re-read): its content key (XXH3-128), and its SHA-256 when that was
//     computed too (a sweep's rows record it; a shared cache uses it).
//  2. Entry: KEY-SUM-XXH.cols, where KEY hashes the schema version, the
//     token counter's identity, the tokenize-sample setting with the
//     super-pass size it uses, the full-output count mode, the line cap,
//     the events file's size and mtime and which digest SUM is; SUM is
//     the events file's content key in a private cache, the start of its
//     SHA-256 in a shared one; XXH the XXH3-64 of the entry's bytes,
//     which the entry also ends with. Both are checked on every read
//     (one pass over the file), and every offset and length in it
//     against the file's size, so a torn, corrupt or lying entry is
//     never trusted: it is removed and rebuilt. KEY-SHA.entry names the
//     entry last written, so a lookup opens it without listing the
//     directory.
//
// A hit is always the same bytes: any write to the events file changes
// its ctime, hence its identity, and a new identity (an edited file, a
// copy, a restore from backup) is decoded again. The sidecars are not in
// the entry: RunInfo and the dataset indices are applied from the run's
// own sidecars on every load, so runs with identical logs but different
// configs share only what the logs decide (a config.yaml seen before is
// taken from ConfigMemo's records by its bytes rather than parsed again,
// configmemo.go). Entries are written to a
// temporary file and renamed, never changed in place, so concurrent
// processes at worst write the same entry twice.
//
// A hit's columns are used in place: on Linux an entry of hugeReadMin
// bytes or more is read into transparent huge pages outside the heap
// (entrymap_mmap.go); there without THP, on macOS, and for an entry of
// mapMinSize bytes or more, it is mapped (MAP_PRIVATE: the file is never
// written; a write to a column copies its page, as a write to a buffer
// read would change the buffer alone). The Samples' slices point into
// that memory, which is never freed (a Loaded's columns may be held
// anywhere; the process keeps at most mapBudget of it, past which entries
// are read into the heap). A mapped entry truncated in place by another
// writer would fault on access; this package never does that, and only
// the user's own entries are used. Elsewhere, and for a small entry, the
// file is read into one buffer of its own.
type Cache struct {
	// Dir is the cache directory (DefaultCacheDir() when empty; when
	// that is empty too, nothing is cached: every Lookup misses and Fill
	// only decodes).
	Dir string
}

// cacheKeyVersion changes when the key or the entry layout does (5: the
// entry's own layout, cacheentry.go, instead of Arrow IPC; 6: its
// checksum an XXH3-64, not a CRC-32C).
const cacheKeyVersion = 6

// entrySuffix ends an entry's file name.
const entrySuffix = ".cols"

// DefaultCacheDir is the one default cache directory of every command
// (--cache-dir) and of a Cache without a Dir: $XDG_CACHE_HOME/steadysweep,
// else the user's cache directory (os.UserCacheDir: ~/.cache on Linux,
// ~/Library/Caches on macOS, %LocalAppData% on Windows)/steadysweep, else
// "": no cache. Never a shared temporary directory: the cache trusts its
// writers, and one shared with other users could serve forged columns.
func DefaultCacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "steadysweep")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "steadysweep")
	}
	return ""
}

func (c *Cache) dir() string {
	if c.Dir != "" {
		return c.Dir
	}
	return DefaultCacheDir()
}

// Lookup returns the run's columns when the cache holds a valid entry for
// them under opts, and never decodes. A caller that tunes for the decode
// (its memory grows with the file) calls Lookup, then Fill on a miss.
func (c *Cache) Lookup(run *contract.Run, opts contract.IngestOptions) (*contract.Loaded, bool) {
	fi, err := os.Stat(run.EventsPath)
	if err != nil {
		return nil, false
	}
	id := contract.FileIdentity(fi)
	l := c.lookup(run, opts, id)
	return l, l != nil
}

// Fill decodes the run with decode (columnar.Load), hashing the events
// file as it is read, and stores the result without looking for an entry
// first (columnar.Cache.Load does).
func (c *Cache) Fill(ctx context.Context, run *contract.Run, opts contract.IngestOptions, decode func(context.Context, *contract.Run, contract.IngestOptions) (*contract.Loaded, error)) (*contract.Loaded, error) {
	l, store, err := c.FillLater(ctx, run, opts, decode)
	if store != nil {
		if err := store(); err != nil {
			run.Warnf("%v", err)
		}
	}
	return l, err
}

// FillLater is Fill that leaves the entry's write to its caller: store
// (nil when there is nothing to write) writes the entry, its pointer and
// the events file's identity, and returns what Fill would warn of
// ("cache: …"). It may run on another goroutine while the columns are
// used, which must not change them until it returns: a cold analyze
// writes the 6 MB entry of a 185 MB log while it analyses, not before.
// The entry's plan (its summary and run info, encoded) is made here, so
// the Loaded's other fields may change at once.
func (c *Cache) FillLater(ctx context.Context, run *contract.Run, opts contract.IngestOptions, decode func(context.Context, *contract.Run, contract.IngestOptions) (*contract.Loaded, error)) (*contract.Loaded, func() error, error) {
	fi, err := os.Stat(run.EventsPath)
	if err != nil {
		return nil, nil, fmt.Errorf("cache key: %w", err)
	}
	id := contract.FileIdentity(fi)
	if c.dir() == "" {
		l, err := decode(ctx, run, opts) // no cache directory (DefaultCacheDir)
		return l, nil, err
	}
	// The directory is made first: one that does not exist yet counts as
	// shared (shared.go), but the one made here is the user's own.
	os.MkdirAll(c.dir(), 0o755)
	shared := c.shared()
	key := cacheKey(run, opts, id, shared)
	wantSHA := opts.HashEvents || shared
	opts.HashEvents, opts.KeyEvents = wantSHA, !shared
	l, err := decode(ctx, run, opts)
	if err != nil {
		return nil, nil, err
	}
	d := digests{Key: l.EventsKey, SHA: l.EventsSHA256}
	if needKey, needSHA := !shared && d.Key == "", wantSHA && d.SHA == ""; needKey || needSHA {
		// A reader that does not hash as it reads (other tools' formats,
		// whose logs are small beside endpoints'): read the file for it.
		got, err := hashFileOnce(run.EventsPath, id, needKey, needSHA)
		if err != nil {
			run.Warnf("cache: %v", err)
			return l, nil, nil
		}
		d.merge(got)
		l.EventsKey, l.EventsSHA256 = d.Key, d.SHA
	}
	// A file written while it was read is not recorded under either identity.
	if fi2, err := os.Stat(run.EventsPath); err != nil || contract.FileIdentity(fi2) != id {
		return l, nil, nil
	}
	plan, err := PlanEntry(l)
	if err != nil {
		run.Warnf("cache: %v", err)
		return l, nil, nil
	}
	sum := d.content(shared)
	store := func() error {
		if err := c.storePlan(key, sum, plan); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		if err := c.recordIdentity(id, d); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		return nil
	}
	return l, store, nil
}

// lookup is the entry of run under opts, its events file of identity
// id, or nil. A hit asked for the SHA-256 (opts.HashEvents: a sweep's
// rows) that the identity does not record (an analyze filled the entry)
// hashes the file for it once and records it.
func (c *Cache) lookup(run *contract.Run, opts contract.IngestOptions, id [5]int64) *contract.Loaded {
	d, ok := c.identityDigests(id)
	if !ok {
		return nil
	}
	shared := c.shared(c.identityPath(id))
	if shared {
		// shared.go: the events file hashed now, with the SHA-256.
		if d.SHA == "" {
			return nil
		}
		if got, err := hashFileOnce(run.EventsPath, id, false, true); err != nil || got.SHA != d.SHA {
			return nil
		}
	}
	content := d.content(shared)
	if content == "" {
		return nil
	}
	l := c.entry(cacheKey(run, opts, id, shared), content, d, run, func() bool { return true })
	if l != nil && opts.HashEvents && d.SHA == "" {
		got, err := hashFileOnce(run.EventsPath, id, false, true)
		if err != nil {
			return nil // decoded again, hashed as it is read
		}
		d.merge(got)
		l.EventsSHA256 = d.SHA
		if err := c.recordIdentity(id, d); err != nil {
			run.Warnf("cache: %v", err)
		}
	}
	return l
}

// EventsDigest returns the SHA-256 (hex) of the events file at path as
// the cache recorded it when the file was decoded, if the file is
// unchanged since (same identity). It reads the events file only when
// the cache is shared (shared.go), to check the recorded digest.
func (c *Cache) EventsDigest(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	id := contract.FileIdentity(fi)
	d, ok := c.identityDigests(id)
	ok = ok && d.SHA != ""
	if ok && c.shared(c.identityPath(id)) {
		got, err := hashFileOnce(path, id, false, true)
		ok = err == nil && got.SHA == d.SHA
	}
	return d.SHA, ok
}

// readerSidecars are the files beside a log that its format's reader
// reads into what the cache stores (a reader that reads another file
// lists it here).
// A switch, not a map: a package-level map is built by every process at
// start-up (issue 32).
func readerSidecars(f contract.Format) []string {
	switch f {
	case contract.FormatAIPerf, contract.FormatAIPerfCSV, contract.FormatAIPerfParquet:
		return foreign.AIPerfInfoFiles
	}
	return nil
}

// cacheKey derives the entry key of run under opts; shared says the
// entry is named by the SHA-256 (digests.content), not the content key.
// The hashed text is appended with strconv, not fmt (whose first use costs
// a warm analyze ~0.3 ms): the same text fmt.Fprintf's %d, %q and %v wrote.
func cacheKey(run *contract.Run, opts contract.IngestOptions, id [5]int64, shared bool) string {
	counter := "none"
	if opts.Counter != nil {
		counter = opts.Counter.Identity()
	}
	b := make([]byte, 0, 512)
	field := func(name string, v int64) {
		b = append(b, name...)
		b = strconv.AppendInt(append(b, '='), v, 10)
		b = append(b, 0)
	}
	b = append(b, "steadysweep-cache\x00"...)
	field("v", cacheKeyVersion)
	field("schema", contract.SchemaVersion)
	b = append(strconv.AppendQuote(append(b, "counter="...), counter), 0)
	field("sample", int64(opts.TokenizeSample))
	field("S", int64(contract.SampleSuperPass(run, opts)))
	field("full", int64(contract.TokensModeOf(run)))
	field("maxline", int64(contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize)))
	field("size", id[2])
	field("mtime", id[3])
	sum := "xxh3-128"
	if shared {
		sum = "sha256"
	}
	b = append(append(b, "sum="+sum...), 0)
	if run.Format != "" && run.Format != contract.FormatEndpoints {
		b = append(append(b, "format="+string(run.Format)...), 0)
		field("part", int64(run.Part)) // one report, several runs
	}
	// A reader that reads files beside its log (AIPerf's summary and
	// steady-state window: the model, the load, the peer window) stores
	// what they say in the entry: their identities are in the key, so an
	// edited one is read again.
	for _, name := range readerSidecars(run.Format) {
		b = append(append(b, "sidecar="+name...), 0)
		p := filepath.Join(filepath.Dir(run.EventsPath), name)
		if fi, err := os.Stat(p); err == nil {
			sep := byte('[') // "[a b c d e]", as %v wrote it
			for _, v := range contract.FileIdentity(fi) {
				b = strconv.AppendInt(append(b, sep), v, 10)
				sep = ' '
			}
			b = append(b, "]\x00"...)
		} else {
			b = append(b, "absent\x00"...)
		}
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// Entry returns a valid entry for key and events digest sha, or nil.
// Invalid entries are removed. The entry the pair's pointer file names is
// tried first: one small read, where listing the cache directory grows
// with every run cached (a sweep over an archive lists it once a run). A
// listing is the fallback, for a pointer lost to a concurrent writer or
// naming an entry since removed.
//
// In a shared cache (shared.go) an entry file is used only when it is the
// user's own and the run's events file hashes to sha now.
func (c *Cache) Entry(key, sha string, run *contract.Run) *contract.Loaded {
	return c.entry(key, sha, digests{SHA: sha}, run, func() bool {
		got, err := hashFile(run.EventsPath, false, true)
		return err == nil && got.SHA == sha
	})
}

// entry is Entry of the entries named by sum, the events file's digests
// d, verify deciding (once) whether an entry file of a shared cache may
// be used.
func (c *Cache) entry(key, sum string, d digests, run *contract.Run, verify func() bool) *contract.Loaded {
	sharedDir := c.shared()
	verified := 0 // 0 not yet asked, 1 true, −1 false
	// trusted judges an entry by its open descriptor's fstat (st), which
	// is what loadEntry then reads: a file renamed over the path after
	// the judgement is never the one read.
	trusted := func(st fs.FileInfo) bool {
		// Only the user's own entries: another writer's could hold any
		// columns under the right name.
		if !privateTo(st, currentUID()) {
			return false
		}
		if !sharedDir {
			return true
		}
		if verified == 0 {
			verified = -1
			if verify() {
				verified = 1
			}
		}
		return verified == 1
	}
	// use is the entry at path when it is trusted; stop ends the lookup
	// at an entry that is not.
	use := func(path string) (l *contract.Loaded, stop bool) {
		f, st, err := safeopen.OpenNoFollow(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
		if err != nil {
			// Not an entry file at all (a link, a device): discarded
			// unread, named.
			run.Warnf("cache: discarding %s: %v", path, err)
			os.Remove(path)
			return nil, false
		}
		defer f.Close()
		if !trusted(st) {
			return nil, true
		}
		if EntryJudged != nil {
			EntryJudged(path)
		}
		return c.loadEntry(f, st, path, d, run), false
	}
	base := EntryBase(key, sum)
	pointed := ""
	if name, ok := c.pointedEntry(base); ok {
		pointed = filepath.Join(c.dir(), name)
		if l, stop := use(pointed); l != nil || stop {
			return l
		}
	}
	matches, _ := filepath.Glob(filepath.Join(c.dir(), base+"-*"+entrySuffix))
	for _, path := range matches {
		if path == pointed {
			continue
		}
		if l, stop := use(path); l != nil || stop {
			return l
		}
	}
	return nil
}

// EntryJudged, when set (a test's hook, never by the program), is called
// between an entry's judgement and its read: where another writer of a
// shared cache could rename a forged entry over the one judged.
var EntryJudged func(path string)

// EntryBase is the start of the names of the entries for key and the
// events digest sum (digests.content): BASE-XXH.cols, and BASE.entry the
// pointer to the latest of them.
func EntryBase(key, sum string) string { return key + "-" + sum[:32] }

// pointedEntry returns the entry name the pointer file of base holds,
// when it is one of base's entry names.
func (c *Cache) pointedEntry(base string) (string, bool) {
	b, err := safeopen.ReadFile(filepath.Join(c.dir(), base+".entry"), "a cache pointer", 256)
	if err != nil {
		return "", false
	}
	name := strings.TrimSuffix(string(b), "\n")
	sum, ok := strings.CutPrefix(name, base+"-")
	if !ok || len(sum) != len("0123456789abcdef"+entrySuffix) || !strings.HasSuffix(sum, entrySuffix) || strings.ContainsAny(sum, "/\\") {
		return "", false
	}
	return name, true
}

// loadEntry returns the entry f, open at path (st its fstat), applied to
// run, or nil when it is invalid (then removed, with a warning).
func (c *Cache) loadEntry(f *os.File, st fs.FileInfo, path string, d digests, run *contract.Run) *contract.Loaded {
	// An endpoints run's facts come from its sidecars, read afresh;
	// another format's from its own log, stored with the columns.
	fromSidecars := run.Format == "" || run.Format == contract.FormatEndpoints
	l, err := readEntry(f, st, path, fromSidecars)
	if err != nil {
		run.Warnf("cache: discarding %s: %v", path, err)
		os.Remove(path)
		return nil
	}
	info := l.Info
	if fromSidecars {
		info = endpoints.EndpointsInfo(run)
	}
	// The entry keeps the problems of the file it was made from; they
	// must name this run's file.
	l.Summary.File = run.EventsPath
	l.Summary.RestoreFirst()
	l.EventsSHA256, l.EventsKey = d.SHA, d.Key
	l.Attach(run, info)
	return l
}

// ReadEntry reads and validates one entry file (cacheentry.go), its
// columns in place in the mapping or buffer it was read into.
func ReadEntry(path string) (*contract.Loaded, error) {
	// An entry is only ever a regular file this package wrote; anything
	// else (a link, a FIFO, a huge file) is refused unread and then
	// removed like any invalid entry.
	f, st, err := safeopen.OpenNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readEntry(f, st, path, false)
}

// readEntry is ReadEntry of the entry f open at path, st its fstat: the
// file mapped (mapEntry) or read, its checksums checked against its
// trailer and its name, then its columns laid over the bytes (its RunInfo
// left undecoded with skipInfo: loadedFromEntry).
func readEntry(f *os.File, st fs.FileInfo, path string, skipInfo bool) (*contract.Loaded, error) {
	if st.Size() > safeopen.LimitCacheEntry {
		return nil, &safeopen.Error{Path: path, Kind: "a cache entry", Limit: safeopen.LimitCacheEntry, Err: safeopen.ErrTooLarge}
	}
	b, unmap := mapEntry(f, st.Size())
	if b == nil {
		var err error
		if b, err = safeopen.ReadOpen(f, st, path, "a cache entry", safeopen.LimitCacheEntry); err != nil {
			return nil, err
		}
	}
	l, err := entryOf(b, filepath.Base(path), skipInfo)
	if err != nil && unmap != nil {
		unmap() // nothing of it was kept
	}
	return l, err
}

// entryOf is the entry b named name, checked (loadedFromEntry).
func entryOf(b []byte, name string, skipInfo bool) (*contract.Loaded, error) {
	sum, err := checkEntry(b)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(name, entrySuffix)
	dash := strings.LastIndexByte(base, '-')
	if dash < 0 || base[dash+1:] != sumHex(sum) {
		return nil, errors.New("checksum mismatch with the entry's name")
	}
	return loadedFromEntry(b, skipInfo)
}

// sumHex is an entry checksum as its name carries it: 16 lowercase hex
// digits (%016x).
func sumHex(sum uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], sum)
	return hex.EncodeToString(b[:])
}

// Store writes l's columns as the entry for key, atomically. An
// endpoints run's facts stored with them are not used (attach applies the
// sidecars on load); the dataset indices are not stored. The entry is
// streamed to its temporary file, its checksum computed on the way, and
// named by it on commit: no copy of the columns is held (a buffer of the
// whole entry was a third of a cold 1 GB analyze's peak). The entry is
// named by l.EventsKey, else l.EventsSHA256 (EntryBase).
func (c *Cache) Store(key string, l *contract.Loaded) error {
	return c.store(key, cmp.Or(l.EventsKey, l.EventsSHA256), l)
}

// store is Store, the entry named by the events digest sum.
func (c *Cache) store(key, sum string, l *contract.Loaded) error {
	plan, err := PlanEntry(l)
	if err != nil {
		return err
	}
	return c.storePlan(key, sum, plan)
}

// storePlan is store of the entry planned (PlanEntry).
func (c *Cache) storePlan(key, sum string, plan *EntryPlan) error {
	if err := os.MkdirAll(c.dir(), 0o755); err != nil {
		return err
	}
	base := EntryBase(key, sum)
	prefix := filepath.Join(c.dir(), base+"-")
	f, err := atomicfile.Create(prefix + "unchecked" + entrySuffix)
	if err != nil {
		return err
	}
	f.Unsynced() // its checksum is checked on every read (writeCacheFile)
	xxh, err := plan.Write(f)
	if err != nil {
		return errors.Join(fmt.Errorf("write entry: %w", err), f.Abort())
	}
	name := base + "-" + sumHex(xxh) + entrySuffix
	if err := f.CommitAs(filepath.Join(c.dir(), name)); err != nil {
		return err
	}
	return writeCacheFile(c.dir(), base+".entry", []byte(name+"\n"))
}

// writeCacheFile writes dir/name atomically (internal/atomicfile),
// unsynced: every file of the cache is checked where it is read (an
// entry's XXH3-64, which its name and its pointer carry; an identity
// file's digests, which name the entry), so one a crash left empty or torn
// is a miss, rebuilt; a sync per file was a sixth of a cold analyze's wall
// time (three files, 10–20 ms each on a virtual disk).
func writeCacheFile(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := atomicfile.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if _, err := f.Unsynced().Write(data); err != nil {
		return errors.Join(err, f.Abort())
	}
	return f.Commit()
}
