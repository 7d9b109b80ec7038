package cache

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// TestConfigRecordCoversEveryField: the record writes the 14 fields of
// sidecar.Config, 4 of WarmupConfig and 5 of DatasetConfig; a field added
// to any of them must be added to the record (and
// sidecar.ConfigMemoVersion bumped), not dropped from every memo hit.
func TestConfigRecordCoversEveryField(t *testing.T) {
	written := map[reflect.Type]int{
		reflect.TypeFor[sidecar.Config]():        14,
		reflect.TypeFor[sidecar.WarmupConfig]():  4,
		reflect.TypeFor[sidecar.DatasetConfig](): 5,
	}
	for typ, n := range written {
		if got := typ.NumField(); got != n {
			t.Errorf("%v has %d fields, the config record %d: extend encodeConfigRecord and decodeConfigRecord", typ, got, n)
		}
	}
}

// plantedConfig sets every field of a Config, each to a value of its own.
func plantedConfig() *sidecar.Config {
	return &sidecar.Config{
		Type: "online", Model: "openai/gpt-oss-120b", TokenizerName: "wörds", Streaming: "on",
		LoadPattern: "concurrency", TargetConcurrency: -16, TargetQPS: 12.5,
		MinDurationMs: 600000, MaxDurationMs: -1, NSamplesToIssue: 1 << 40,
		Warmup:   sidecar.WarmupConfig{Enabled: true, Salt: false, Drain: true, NRequests: 7},
		Datasets: []sidecar.DatasetConfig{{Name: "perf", Type: "performance", Path: "/data/p.jsonl", Agentic: true, NumTrajectories: 3}, {}},
		APIType:  "openai", Endpoints: []string{"http://10.0.4.17:8000", ""},
	}
}

// filledConfig sets every field of a Config by reflection, each to a
// value of its own (two elements a list): a field the record does not
// carry reads back zero.
func filledConfig() *sidecar.Config {
	c := new(sidecar.Config)
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		n++
		switch v.Kind() {
		case reflect.String:
			v.SetString("s" + strconv.Itoa(n))
		case reflect.Int:
			v.SetInt(int64(n))
		case reflect.Float64:
			v.SetFloat(float64(n) + 0.25)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			fill(v.Index(0))
			fill(v.Index(1))
		default:
			panic("filledConfig: a field of kind " + v.Kind().String())
		}
	}
	fill(reflect.ValueOf(c).Elem())
	return c
}

// TestConfigRecordRoundTrip: a Config with every field set (by
// reflection, and by hand), the zero one and one with empty lists read
// back equal (nil and empty lists kept apart), and only for the very
// document they were recorded with.
func TestConfigRecordRoundTrip(t *testing.T) {
	doc := []byte("name: x\nmodel_params:\n  name: m\n")
	empty := &sidecar.Config{Datasets: []sidecar.DatasetConfig{}, Endpoints: []string{}}
	for name, want := range map[string]*sidecar.Config{"filled": filledConfig(), "planted": plantedConfig(), "zero": {}, "empty": empty} {
		rec := encodeConfigRecord(doc, want)
		got, ok := decodeConfigRecord(rec, doc)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %#v (%v), want %#v", name, got, ok, want)
		}
		if _, ok := decodeConfigRecord(rec, append(doc[:len(doc):len(doc)], ' ')); ok {
			t.Errorf("%s: read back for another document", name)
		}
	}
}

// TestConfigRecordDamaged: every proper prefix of a record, the record
// with a byte after it, and with another memo version, read as no record.
func TestConfigRecordDamaged(t *testing.T) {
	doc := []byte("type: online\n")
	rec := encodeConfigRecord(doc, plantedConfig())
	for n := range len(rec) {
		if _, ok := decodeConfigRecord(rec[:n], doc); ok {
			t.Fatalf("the record cut to %d of %d bytes read back", n, len(rec))
		}
	}
	if _, ok := decodeConfigRecord(append(rec[:len(rec):len(rec)], 0), doc); ok {
		t.Error("a record with a byte after it read back")
	}
	other := append([]byte(nil), rec...)
	other[len(configMagic)]++ // the version's varint
	if _, ok := decodeConfigRecord(other, doc); ok {
		t.Error("a record of another memo version read back")
	}
}

// TestConfigMemoFiles: the cache's memo gives back what it recorded, in a
// directory it makes; a record whose file others may write, and a shared
// cache directory, are not used.
func TestConfigMemoFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c := &Cache{Dir: dir}
	memo := c.ConfigMemo()
	if memo == nil {
		t.Fatal("no memo for a cache directory not made yet")
	}
	doc := []byte("type: online\n")
	if _, ok := memo.Parsed(doc); ok {
		t.Fatal("a memo with no record read one")
	}
	memo.Remember(doc, plantedConfig())
	got, ok := memo.Parsed(doc)
	if !ok || !reflect.DeepEqual(got, plantedConfig()) {
		t.Fatalf("Parsed after Remember: %+v, %v", got, ok)
	}
	if _, ok := memo.Parsed([]byte("type: offline\n")); ok {
		t.Error("another document read a record")
	}
	path := configMemo{dir: filepath.Join(dir, "configs")}.path(doc)
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, ok := memo.Parsed(doc); ok {
		t.Error("a record others may write was used")
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if c.ConfigMemo() != nil {
		t.Error("a shared cache directory has a memo")
	}
}
