package htmlpage

import "strings"

// inlineMarkdown escapes s for HTML, then turns `x` into code and **x**
// into bold: the only Markdown the calibration's texts use. It is the
// regular-expression rewrite it replaces (regexp's package init and
// compile are not paid at every process start; TestInlineMarkdown):
//
//	e := template.HTMLEscapeString(s)
//	e = regexp.MustCompile("`([^`]*)`").ReplaceAllString(e, "<code>$1</code>")
//	e = regexp.MustCompile(`\*\*(.+?)\*\*`).ReplaceAllString(e, "<strong>$1</strong>")
func inlineMarkdown(s string) string {
	return mdBold(mdCode(markdownEscape(s)))
}

// markdownEscape is text/template's HTMLEscapeString: <, >, &, ' and "
// as entities, NUL as U+FFFD (unlike html/template's escapers, + is
// kept).
func markdownEscape(s string) string {
	if !strings.ContainsAny(s, "'\"&<>\000") {
		return s
	}
	var w pageWriter
	w.escape(s, false)
	return w.b.String()
}

// mdCode turns each `x` of s into <code>x</code>, pairing backticks from
// the left (x may be empty and may hold line breaks).
func mdCode(s string) string {
	var b strings.Builder
	last := 0
	for {
		i := strings.IndexByte(s[last:], '`')
		if i < 0 {
			break
		}
		i += last
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		j += i + 1
		b.WriteString(s[last:i])
		b.WriteString("<code>")
		b.WriteString(s[i+1 : j])
		b.WriteString("</code>")
		last = j + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// mdBold turns each **x** of s into <strong>x</strong>: from the left,
// the shortest non-empty x without a line break.
func mdBold(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(s); {
		if s[i] != '*' || s[i+1] != '*' {
			i++
			continue
		}
		k := -1
		for m := i + 2; m < len(s) && s[m] != '\n'; m++ {
			if m >= i+3 && m+1 < len(s) && s[m] == '*' && s[m+1] == '*' {
				k = m
				break
			}
		}
		if k < 0 {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString("<strong>")
		b.WriteString(s[i+2 : k])
		b.WriteString("</strong>")
		last, i = k+2, k+2
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
