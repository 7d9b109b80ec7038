"""Run the reference steady-state detector on one run with whitespace words.

Usage: STEADYSWEEP_REFERENCE=/path/to/steady_state_diagnostics.py \
           python3 reference_shim.py RUN_DIR [--no-min-duration] [--json OUT]

The reference (mlcommons/endpoints @ 40b78bfe,
src/inference_endpoint/metrics/steady_state_diagnostics.py) is never
vendored: it is loaded from the path in STEADYSWEEP_REFERENCE. Tokens are
counted as whitespace words (len(text.split())), the counter the parity
corpus uses, so the reference needs no transformers. This is the library
mode of shared/parity/README.md ("Commands used"): the CLI's effective
defaults called through the module API. The JSON result goes to --json
(or is discarded) so that timing covers the analysis, not printing.
"""

import importlib.util
import json
import os
import sys


def load_reference():
    path = os.environ.get("STEADYSWEEP_REFERENCE")
    if not path:
        sys.exit("reference_shim: set STEADYSWEEP_REFERENCE to steady_state_diagnostics.py")
    spec = importlib.util.spec_from_file_location("steady_state_diagnostics", path)
    m = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = m
    spec.loader.exec_module(m)
    return m


def words(texts):
    return [len(t.split()) for t in texts]


def main(argv):
    args = list(argv)
    enforce = "--no-min-duration" not in args
    if not enforce:
        args.remove("--no-min-duration")
    out = None
    if "--json" in args:
        i = args.index("--json")
        out = args[i + 1]
        del args[i : i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    m = load_reference()
    events, cfg_path, meta_path = m.find_run_files(args[0])
    cfg = m.read_run_config(cfg_path, meta_path)
    profile = m.profile_for_load_pattern(cfg["load_pattern"] or "concurrency")
    size = cfg["dataset_size"]
    if not size:
        sys.exit("reference_shim: no dataset_size in run_meta.json")
    result = m.run(
        events,
        superpass_size=size,
        count_tokens=words,
        window_sizes=[4, 6, 8],
        warmup="auto",
        cov_bounds=list(profile.cov_bounds),
        tokenize_batch_size=profile.tokenize_batch_size,
        warmup_driver=profile.warmup_driver,
        enforce_min_duration=enforce,
    )
    if out:
        with open(out, "w") as fh:
            json.dump(result, fh, indent=2)
            fh.write("\n")
    ss = result["steady_state"]
    print(f"n_super_passes={result['n_super_passes']} found={ss['found']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
