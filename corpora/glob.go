package corpora

import (
	"fmt"
	"path"
	"strings"
)

// A glob is an include or exclude pattern over a run's path relative to
// its root (Rel, slash-separated):
//
//   - within a segment, path.Match syntax: * (any characters but /),
//     ? (one character), [a-z] (a class);
//   - a segment "**" matches any number of whole segments, zero included;
//   - a pattern selects a run when it matches its Rel or an ancestor of it,
//     so "old" and "old/*" both select everything under old/;
//   - a pattern without a "/" matches at any depth, as if it began with
//     "**/": "*malformed*" selects parity/conc_dup_malformed, and
//     "conc_*" every run under a directory named conc_something.
//
// Matching takes time linear in the pattern times the path (a greedy match
// that backtracks only to the last "**"), however many "**" the pattern
// holds.
type glob struct {
	text string
	segs []string // with "**" wherever the rules above put it
}

func compileGlobs(kind string, patterns []string) ([]glob, []error) {
	var gs []glob
	var errs []error
	for _, p := range patterns {
		p = strings.Trim(strings.TrimSpace(p), "/")
		if p == "" {
			continue
		}
		g, err := compileGlob(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s pattern %q: %w", kind, p, err))
			continue
		}
		gs = append(gs, g)
	}
	return gs, errs
}

func compileGlob(p string) (glob, error) {
	var segs []string
	if !strings.Contains(p, "/") {
		segs = append(segs, "**")
	}
	for _, s := range strings.Split(p, "/") {
		if s == "**" {
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue // "**/**" is "**"
			}
		} else if _, err := path.Match(s, ""); err != nil {
			return glob{}, err
		}
		segs = append(segs, s)
	}
	if segs[len(segs)-1] != "**" {
		segs = append(segs, "**") // an ancestor selects its subtree
	}
	return glob{text: p, segs: segs}, nil
}

// selects reports whether g matches rel or one of its ancestors.
func (g glob) selects(rel string) bool {
	return matchSegs(g.segs, strings.Split(rel, "/"))
}

// matchSegs matches pattern segments against name segments: each non-"**"
// segment matches one name segment by path.Match; "**" any run of them.
// On a mismatch it resumes after the last "**" seen, one name segment
// further: whatever the earlier "**" could have absorbed the last one can,
// so no earlier choice is ever revisited.
func matchSegs(pat, name []string) bool {
	p, n := 0, 0
	star, resume := -1, 0
	for n < len(name) {
		switch {
		case p < len(pat) && pat[p] == "**":
			star, resume = p, n
			p++
		case p < len(pat) && segmentMatch(pat[p], name[n]):
			p++
			n++
		case star >= 0:
			resume++
			p, n = star+1, resume
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == "**" {
		p++
	}
	return p == len(pat)
}

func segmentMatch(pattern, name string) bool {
	ok, _ := path.Match(pattern, name)
	return ok
}

// selecting reports whether a pattern of gs selects rel, marking hit[i]
// for each pattern i that does (hit may be nil).
func selecting(gs []glob, rel string, hit []bool) bool {
	found := false
	for i, g := range gs {
		if g.selects(rel) {
			found = true
			if hit != nil {
				hit[i] = true
			}
		}
	}
	return found
}
