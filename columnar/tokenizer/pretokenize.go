package tokenizer

// splitIsolated appends to dst the pieces of s under a Split pre-tokenizer
// with behavior "Isolated" and invert false: every match and every stretch
// between matches becomes a piece, nothing is dropped. Each search resumes
// at the end of the previous match, as Oniguruma's find_iter does. When
// matching fails (m.err: budget or cancel) the pieces so far are returned
// and the caller must look at m.err.
func (m *matcher) splitIsolated(re *pattern, s string, dst []string) []string {
	if m.err != nil {
		return dst
	}
	pos := 0
	m.budget = pieceBudget(len(s))
	m.steps = m.budget
	for pos < len(s) {
		start, end := m.find(re, s, pos)
		if m.err != nil {
			return dst
		}
		if start < 0 {
			break
		}
		if start > pos {
			dst = append(dst, s[pos:start])
		}
		dst = append(dst, s[start:end])
		pos = end
	}
	if pos < len(s) {
		dst = append(dst, s[pos:])
	}
	return dst
}

// preTokenize appends the pieces of s after every Split in order; each
// Split applies to each piece the previous ones produced, so a later
// pattern sees piece boundaries as the end of the text.
func (m *matcher) preTokenize(splits []*pattern, s string, dst []string) []string {
	switch len(splits) {
	case 0:
		return append(dst, s)
	case 1:
		return m.splitIsolated(splits[0], s, dst)
	}
	cur := append(m.pieces[0][:0], s)
	next := m.pieces[1][:0]
	for _, re := range splits[:len(splits)-1] {
		next = next[:0]
		for _, piece := range cur {
			if next = m.splitIsolated(re, piece, next); m.err != nil {
				break
			}
		}
		cur, next = next, cur
	}
	for _, piece := range cur {
		if m.err != nil {
			break
		}
		dst = m.splitIsolated(splits[len(splits)-1], piece, dst)
	}
	m.pieces[0], m.pieces[1] = cur[:0], next[:0]
	return dst
}
