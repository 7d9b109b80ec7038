package sidecar

import "strings"

// urlHost is the host[:port] of a URL as a benchmark tool records it,
// with or without a scheme ("http://10.0.4.17:8000/v1", "localhost:9000");
// "" when it has none or the URL is malformed.
//
// It is url.Parse's Host for the trimmed string (with "http://" put in
// front when it has no "://"), "" where url.Parse fails (TestURLHostParse
// and FuzzURLHost hold it to that, with urlstrictcolons at Go 1.26's
// default): the same checks, in the order that decides only whether
// there is a host. It is written out because net/url links net/netip,
// whose package init makes unique handles in every process (18
// allocations, issue 32), for this one use.
func urlHost(raw string) string {
	raw, ok := endpointURL(raw)
	if !ok {
		return ""
	}
	// The fragment is cut off first and only checked for escapes; the
	// control bytes are looked for before it.
	raw, frag, _ := strings.Cut(raw, "#")
	if hasCTLByte(raw) || !wellEscaped(frag) {
		return ""
	}
	scheme, rest, ok := splitScheme(raw)
	if !ok {
		return ""
	}
	rest, _, _ = strings.Cut(rest, "?")
	// Only "//authority" has a host: "scheme:opaque", a rootless or
	// absolute path, and "///x" without a scheme have none.
	if !strings.HasPrefix(rest, "//") || scheme == "" && strings.HasPrefix(rest, "///") {
		return ""
	}
	authority, path := rest[2:], ""
	if i := strings.IndexByte(authority, '/'); i >= 0 {
		authority, path = authority[:i], authority[i:]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		if user := authority[:i]; !validUserinfo(user) || !wellEscaped(user) {
			return ""
		}
		authority = authority[i+1:]
	}
	host, ok := parseHost(scheme, authority)
	if !ok || !wellEscaped(path) {
		return ""
	}
	return host
}

// endpointURL is raw as urlHost parses it: trimmed, with "http://" in
// front when it has no "://"; false when it is empty.
func endpointURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", false
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	return raw, true
}

// hasCTLByte reports whether s holds an ASCII control byte (< 0x20 or
// DEL), which url.Parse rejects anywhere before the fragment.
func hasCTLByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// splitScheme splits "scheme:rest" where the scheme is
// [a-zA-Z][a-zA-Z0-9+.-]*; with no such prefix the scheme is "" and rest
// is s. ok is false for a leading colon ("missing protocol scheme").
func splitScheme(s string) (scheme, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return "", s, true
			}
		case c == ':':
			if i == 0 {
				return "", "", false
			}
			return s[:i], s[i+1:], true
		default:
			return "", s, true
		}
	}
	return "", s, true
}

// parseHost is the host[:port] of an authority without userinfo,
// unescaped, as url.Parse makes URL.Host: a bracketed IPv6 literal
// (with an RFC 6874 zone after "%25") and an optional numeric port, or a
// name whose port follows its first colon (its last colon, except for
// http and https, where a second colon is an error).
func parseHost(scheme, host string) (string, bool) {
	open := strings.LastIndexByte(host, '[')
	if open > 0 {
		return "", false
	}
	if open == 0 {
		closing := strings.LastIndexByte(host, ']')
		if closing < 0 {
			return "", false
		}
		colonPort := host[closing+1:]
		if !validOptionalPort(colonPort) {
			return "", false
		}
		literal, ok := host[1:closing], true
		if zone := strings.Index(literal, "%25"); zone >= 0 {
			var addr, name string
			addr, ok = unescape(literal[:zone], escHost)
			if ok {
				name, ok = unescape(literal[zone:], escZone)
				literal = addr + name
			}
		} else {
			literal, ok = unescape(literal, escHost)
		}
		if !ok || !validIPv6(literal) {
			return "", false
		}
		return "[" + literal + "]" + colonPort, true
	}
	if i := strings.IndexByte(host, ':'); i >= 0 {
		if last := strings.LastIndexByte(host, ':'); last != i &&
			!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			i = last
		}
		if !validOptionalPort(host[i:]) {
			return "", false
		}
	}
	return unescape(host, escHost)
}

// validOptionalPort reports whether port is "" or ":" and decimal digits.
func validOptionalPort(port string) bool {
	if port == "" {
		return true
	}
	if port[0] != ':' {
		return false
	}
	for i := 1; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}

// validUserinfo reports whether s holds only RFC 3986 userinfo bytes
// (unreserved, sub-delims, ':' and '%'), with '@' allowed as url.Parse
// allows it; any non-ASCII byte is refused.
func validUserinfo(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) || strings.IndexByte("-._:~!$&'()*+,;=%@", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte { return 9*(c>>6) + c&15 }

// hostByte reports whether the ASCII byte c may stand unescaped in a
// host or zone as url.Parse reads them: alphanumerics, the unreserved
// marks, the sub-delims, ':', the brackets, '<', '>' and '"'.
func hostByte(c byte) bool {
	return isAlnum(c) || strings.IndexByte("-_.~!$&'()*+,;=:[]<>\"", c) >= 0
}

// wellEscaped reports whether every '%' of s starts a %XX escape: the
// only check url.Parse makes of a path, a fragment or a userinfo.
func wellEscaped(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0; i = strings.IndexByte(s, '%') {
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return false
		}
		s = s[i+3:]
	}
	return true
}

// escMode is which part of an authority unescape reads.
type escMode uint8

const (
	escHost escMode = iota // a host: escapes only of non-ASCII bytes, and %25
	escZone                // an IPv6 zone: escapes of host bytes, space and %25
)

// unescape decodes the %XX escapes of a host or zone, false where
// url.Parse refuses one or an unescaped byte (ASCII bytes outside
// hostByte; bytes >= 0x80 pass).
func unescape(s string, mode escMode) (string, bool) {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c != '%' {
			if c < 0x80 && !hostByte(c) {
				return "", false
			}
			i++
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		pct := s[i:i+3] == "%25"
		switch mode {
		case escHost:
			if v < 0x80 && !pct {
				return "", false
			}
		case escZone:
			if !pct && v != ' ' && (v >= 0x80 || !hostByte(v)) {
				return "", false
			}
		}
		n++
		i += 3
	}
	if n == 0 {
		return s, true
	}
	b := make([]byte, 0, len(s)-2*n)
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		} else {
			b = append(b, s[i])
		}
	}
	return string(b), true
}
