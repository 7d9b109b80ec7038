package core

// analyze is Run.Analyze on a fresh run of s.
func analyze(s *Samples, info RunInfo, p Params) (*Result, error) { return NewRun(s, info).Analyze(p) }

// analyzeRollups analyses a hand-built super-pass series (the test seam
// for series no samples produce): a run without samples whose rollup at
// the resolved super-pass size is sps.
func analyzeRollups(sps []SuperPass, info RunInfo, p Params) (*Result, error) {
	return runOfRollup(sps, info, p).Analyze(p)
}

// runOfRollup is a run without samples whose rollup at p's super-pass
// size is sps.
func runOfRollup(sps []SuperPass, info RunInfo, p Params) *Run {
	run := NewRun(nil, info)
	if S, err := superpassSize(info, p); err == nil {
		run.rollups = map[rollupKey]*rollup{{S: S}: {S: S, sps: sps, pct: percentileTable(sps), nFull: fullSuperPasses(sps, S)}}
	}
	return run
}

// The seams of the external tests (package core_test), which render
// results through the sinks packages (an internal test cannot import them).
var (
	AnalyzeRollups   = analyzeRollups
	MkSeries         = mkSeries
	RepeatLevel      = repeatLevel
	PostParams       = postParams
	SpannedSeries    = spannedSeries
	ConcatPlateaus   = concatPlateaus
	SyntheticSamples = syntheticSamples
	TestInfo         = testInfo
)

// BlockFor is blockFor (ours_submission_test.go) for the rendering tests.
var BlockFor = blockFor

// AnalyzeLibrary is the reference's library entry point run(): the window
// path whatever the profile (the parity corpus's NAME.json outputs).
func AnalyzeLibrary(s *Samples, info RunInfo, p Params) (*Result, error) {
	return NewRun(s, info).analyze(p, true)
}

// CPUTime is cpuTime, for the external benchmarks.
var CPUTime = cpuTime
