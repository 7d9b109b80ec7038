package columnar

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// longSniffSize bounds how far detection streams a JSON object's
// top-level keys when its first sniffSize bytes do not decide (a GuideLLM
// report whose args, or a vLLM result whose first array, outgrow the
// head): values are skipped, not held, so memory stays one token.
const longSniffSize = 16 << 20

// detectLong decides the format of a JSON file whose head (sniffSize
// bytes) did not: it streams the first object's top-level keys up to
// longSniffSize. Failing that, the file is undecided, said so by name and
// size read, never silently unknown.
func detectLong(path string, head []byte, seen string) (contract.Format, error) {
	body := headBody(head)
	if len(body) > 0 && body[0] != '{' && body[0] != '[' && len(yamlTopLevelKeys(body)) > 0 {
		// A YAML report's "benchmarks" may come after the head: it is
		// decoded whole to know, so detection does not; a row says so.
		return "", &UnknownFormatError{File: path, Undecided: true,
			Seen: fmt.Sprintf("undecided within %d KiB (%s so far)", contract.SniffSize>>10, seen)}
	}
	if len(body) == 0 || body[0] != '{' {
		return "", &UnknownFormatError{File: path, Seen: seen}
	}
	rc, err := contract.OpenEvents(path)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var keys []string
	w := scan.NewJSONWalker(io.LimitReader(rc, longSniffSize), 64<<10)
	err = w.Members(func(key string) error {
		keys = append(keys, key)
		if f, _ := classifyJSON(keys, ""); f != "" {
			return foreign.ErrStopWalk
		}
		return w.Skip()
	})
	f, what := classifyJSON(keys, "")
	switch {
	case f != "":
		return f, nil
	case err == nil && what != "":
		return "", &UnknownFormatError{File: path, Seen: what}
	case err == nil:
		return "", &UnknownFormatError{File: path, Seen: "a JSON object with keys " + keyList(keys)}
	case w.Off < longSniffSize:
		return "", &UnknownFormatError{File: path, Seen: fmt.Sprintf("a JSON object cut short or damaged after keys %s (%v)", keyList(keys), err)}
	}
	return "", &UnknownFormatError{File: path, Undecided: true,
		Seen: fmt.Sprintf("undecided within %d KiB (a JSON object with keys %s so far)", longSniffSize>>10, keyList(keys))}
}

// isUndecided reports an UnknownFormatError of a file detection could not
// decide within its bound.
func isUndecided(err error) bool {
	var u *UnknownFormatError
	return errors.As(err, &u) && u.Undecided
}

// detections memoizes DetectFile by file identity for this process: the
// benchmarks of one GuideLLM report are as many runs of one file, each
// resolved (and detected) on its own.
var detections sync.Map // indexKey → Format

// detectFileOnce is DetectFile, once per path and file identity for the
// files it decides.
func detectFileOnce(path string) (contract.Format, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return DetectFile(path)
	}
	key := foreign.IndexKey{Path: path, ID: contract.FileIdentity(fi)}
	if key.ID[1] == 0 || key.ID[4] == 0 {
		return DetectFile(path)
	}
	if f, ok := detections.Load(key); ok {
		return f.(contract.Format), nil
	}
	f, err := DetectFile(path)
	if err == nil {
		detections.Store(key, f)
	}
	return f, err
}

// undecidedLog returns the error of the first candidate log of dir that
// detection could not decide or refused for its encoding, nil when none:
// a directory whose only log is undecided is said to be so, not "no log".
func undecidedLog(dir string) error {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsForeignLogName(e.Name()) {
			continue
		}
		if _, err := DetectFile(filepath.Join(dir, e.Name())); keepsRun(err) {
			return err
		}
	}
	return nil
}
