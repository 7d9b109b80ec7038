package sidecar

import "strings"

// validIPv6 reports whether s is an IPv6 address as netip.ParseAddr
// reads one inside a URL's brackets: eight colon-separated groups of at
// most four hex digits, one "::" standing for at least one zero group,
// the last two groups optionally a dotted IPv4 address, and an optional
// non-empty zone after '%'. An IPv4 address alone is not one (url.Parse
// refuses "[10.0.0.1]"). TestValidIPv6 and FuzzURLHost hold it to
// netip.ParseAddr.
func validIPv6(s string) bool {
	if z := strings.IndexByte(s, '%'); z >= 0 {
		if z == len(s)-1 {
			return false
		}
		s = s[:z]
	}
	ellipsis := -1 // the byte offset the "::" stands at
	if strings.HasPrefix(s, "::") {
		ellipsis, s = 0, s[2:]
		if s == "" {
			return true
		}
	}
	n := 0 // bytes of the address read
	for n < 16 {
		digits := 0
		for ; digits < len(s) && isHex(s[digits]); digits++ {
			if digits == 4 {
				return false
			}
		}
		if digits == 0 {
			return false
		}
		if digits < len(s) && s[digits] == '.' {
			// The dotted IPv4 tail, the last four bytes.
			if ellipsis < 0 && n != 12 || n+4 > 16 || !validIPv4(s) {
				return false
			}
			s, n = "", n+4
			break
		}
		n += 2
		if s = s[digits:]; s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		if s = s[1:]; s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis, s = n, s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return false
	}
	if n < 16 {
		return ellipsis >= 0
	}
	return ellipsis < 0
}

// validIPv4 reports whether s is four dot-separated decimal bytes with
// no leading zeros, as netip reads the IPv4 tail of an IPv6 address.
func validIPv4(s string) bool {
	dots, val, digits := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			if digits == 1 && val == 0 {
				return false
			}
			val, digits = val*10+int(c-'0'), digits+1
			if val > 255 {
				return false
			}
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' || dots == 3 {
				return false
			}
			dots, val, digits = dots+1, 0, 0
		default:
			return false
		}
	}
	return dots == 3
}
