package core_test

import "github.com/steadysweep/steadysweep/core"

// decodeRun produces the detector input of a run directory.
func decodeRun(dir string) (*core.Samples, core.RunInfo, error) {
	return oracleDecode(dir)
}
