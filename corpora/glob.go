package corpora

import (
	"fmt"
	"path"
	"strings"
)

// A glob is an include or exclude pattern over slash-separated relative
// paths. Segments use path.Match syntax (*, ?, [a-z]); a segment "**"
// matches any number of whole segments, zero included. A pattern selects a
// run when it matches the run's Rel or any ancestor of it, so "old"
// and "old/*" both select everything under old/.
type glob struct {
	text string
	segs []string
}

func compileGlobs(kind string, patterns []string) ([]glob, []error) {
	var gs []glob
	var errs []error
	for _, p := range patterns {
		p = strings.Trim(strings.TrimSpace(p), "/")
		if p == "" {
			continue
		}
		g := glob{text: p, segs: strings.Split(p, "/")}
		for _, s := range g.segs {
			if s == "**" {
				continue
			}
			if _, err := path.Match(s, ""); err != nil {
				errs = append(errs, fmt.Errorf("%s pattern %q: %w", kind, p, err))
				break
			}
		}
		gs = append(gs, g)
	}
	return gs, errs
}

// selects reports whether g matches rel or one of its ancestors.
func (g glob) selects(rel string) bool {
	segs := strings.Split(rel, "/")
	for n := len(segs); n >= 1; n-- {
		if matchSegs(g.segs, segs[:n]) {
			return true
		}
	}
	return false
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

func anySelects(gs []glob, rel string) bool {
	for _, g := range gs {
		if g.selects(rel) {
			return true
		}
	}
	return false
}
