package core

// referenceStatus is the coverage status of a reference-compat result, so
// every sweep row carries one whatever its compat: the reference itself
// has no status (detector spec §11.1), so it is derived from what the
// reference decided.
//
//	not_supported          the agentic NATL path
//	partial_dataset        fewer samples than one super-pass
//	windowable             a plateau was found
//	insufficient_duration  plateaus exist but the min-duration gate rejected all
//	insufficient_passes    no admissible plateau
func referenceStatus(r *Result) string {
	switch {
	case r.Path == "natl":
		return StatusNotSupported
	case len(r.all) == 0 || (len(r.all) == 1 && r.SuperpassSize > 0 && r.all[0].NIssued < r.SuperpassSize):
		return StatusPartialDataset
	case r.Steady.Found:
		return StatusWindowable
	case r.Steady.AllShort:
		return StatusInsufficientDuration
	default:
		return StatusInsufficientPasses
	}
}
