package tokenizer

// firstSet returns the code points below U+0800 that can begin a match of
// items, and whether items can match the empty string. Lookahead is
// skipped, which can only make the set larger, never wrong.
func firstSet(items []*regexNode) (set lowSet, nullable bool) {
	for _, n := range items {
		switch n.kind {
		case nodeClass:
			set.union(&n.class.low)
			if n.min > 0 {
				return set, false
			}
		case nodeAlt:
			anyNullable := false
			for _, sub := range n.subs {
				s, null := firstSet(sub.subs)
				set.union(&s)
				anyNullable = anyNullable || null
			}
			if !anyNullable {
				return set, false
			}
		case nodeConcat:
			s, null := firstSet(n.subs)
			set.union(&s)
			if !null {
				return set, false
			}
		}
	}
	return set, true
}

func nullable(n *regexNode) bool {
	switch n.kind {
	case nodeClass:
		return n.min == 0
	case nodeAlt:
		for _, s := range n.subs {
			if nullable(s) {
				return true
			}
		}
		return false
	case nodeConcat:
		for _, s := range n.subs {
			if !nullable(s) {
				return false
			}
		}
		return true
	}
	return true // lookahead consumes nothing
}

// setAltFirsts fills the first sets of every alternation under n, and of
// what follows each item of a concatenation.
func setAltFirsts(n *regexNode) {
	for _, sub := range n.subs {
		setAltFirsts(sub)
	}
	if n.kind == nodeConcat {
		// firstSet(n.subs[i+1:]) for every i, from the back: linear in the
		// length of the concatenation, however long.
		var rest lowSet
		restNullable := true
		for i := len(n.subs) - 1; i >= 0; i-- {
			item := n.subs[i]
			item.restFirst, item.restNullable = rest, restNullable
			set, null := firstSet(n.subs[i : i+1])
			if null {
				rest.union(&set)
			} else {
				rest = set
			}
			restNullable = restNullable && null
		}
	}
	if n.kind != nodeAlt {
		return
	}
	n.firsts = make([]lowSet, len(n.subs))
	n.nullables = make([]bool, len(n.subs))
	for i, sub := range n.subs {
		n.firsts[i], n.nullables[i] = firstSet(sub.subs)
	}
}

// follow is what may come right after a part of a pattern: a match
// continuing with one of classes, or the match ending. unknown marks a
// lookahead, after which nothing is assumed.
type follow struct {
	classes []*runeClass
	unknown bool
}

// maxFollowClasses bounds a follow's class list (the shared patterns need
// at most 4): past it the follow is unknown, which only forgoes the
// possessive speed-up, and a pattern of many optional atoms stays linear to
// analyse.
const maxFollowClasses = 32

func (f follow) capped() follow {
	if len(f.classes) > maxFollowClasses {
		return follow{unknown: true}
	}
	return f
}

// markPossessive sets regexNode.possessive on the repetitions of items
// whose class shares no code point with anything that can follow them.
// Backtracking into such a repetition cannot help: each character given
// back is one the rest cannot start with, and ending the match there would
// have succeeded at the longer position first. The matcher then runs
// these repetitions as plain loops, which is most of every shared pattern.
func markPossessive(items []*regexNode, after follow) {
	f := after
	for i := len(items) - 1; i >= 0; i-- {
		n := items[i]
		switch n.kind {
		case nodeClass:
			n.possessive = !f.unknown && disjointFromAll(n.class, f.classes)
			if n.min > 0 {
				f = follow{classes: []*runeClass{n.class}}
			} else {
				f = follow{classes: append([]*runeClass{n.class}, f.classes...), unknown: f.unknown}.capped()
			}
		case nodeAlt:
			var next follow
			for _, sub := range n.subs {
				markPossessive(sub.subs, f)
				sf := firstFollow(sub.subs, f)
				next.classes = append(next.classes, sf.classes...)
				next.unknown = next.unknown || sf.unknown
				next = next.capped()
			}
			f = next
		case nodeConcat:
			markPossessive(n.subs, f)
			f = firstFollow(n.subs, f)
		case nodeLookahead:
			markPossessive(n.subs[0].subs, follow{})
			f.unknown = true
		}
	}
}

// firstFollow is what can come first when matching items then after.
func firstFollow(items []*regexNode, after follow) follow {
	var f follow
	for _, n := range items {
		switch n.kind {
		case nodeClass:
			f.classes = append(f.classes, n.class)
			if n.min > 0 {
				return f
			}
			continue
		case nodeLookahead:
			f.unknown = true
			continue
		}
		var inner follow
		var subs [][]*regexNode
		if n.kind == nodeAlt {
			for _, sub := range n.subs {
				subs = append(subs, sub.subs)
			}
		} else {
			subs = [][]*regexNode{n.subs}
		}
		nullable := false
		for _, sub := range subs {
			sf := firstFollow(sub, follow{})
			inner.classes = append(inner.classes, sf.classes...)
			inner.unknown = inner.unknown || sf.unknown
			nullable = nullable || nullableItems(sub)
		}
		f.classes = append(f.classes, inner.classes...)
		f.unknown = f.unknown || inner.unknown
		if !nullable {
			return f
		}
	}
	f.classes = append(f.classes, after.classes...)
	f.unknown = f.unknown || after.unknown
	return f.capped()
}

func nullableItems(items []*regexNode) bool {
	return nullable(&regexNode{kind: nodeConcat, subs: items})
}
