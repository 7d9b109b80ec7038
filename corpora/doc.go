// Package corpora finds benchmark run directories in archives.
//
// A run directory holds an events log — events.jsonl, events.jsonl.gz or
// events.jsonl.zst — either directly or under client/ (the root file wins
// when both exist, as the reference resolves a target). Discover walks
// roots recursively and returns every run once, in sorted order:
//
//	archive/
//	  a/events.jsonl            → run "a"
//	  b/client/events.jsonl.gz  → run "b" (one run, not b and b/client)
//	  b/audit/x/events.jsonl    → run "b/audit/x" (nested runs are runs too)
//
// Problems met on the way (unreadable directories, symlink loops, runs
// whose relative path collides with one from an earlier root) are
// reported alongside the runs and never stop the walk.
package corpora
