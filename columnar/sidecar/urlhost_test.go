package sidecar

import (
	"net/netip"
	"net/url"
	"slices"
	"testing"
)

// urlHostOracle is urlHost as it was written with net/url: its
// replacement must give the same host, and "" wherever url.Parse fails.
func urlHostOracle(raw string) string {
	raw, ok := endpointURL(raw)
	if !ok {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// endpointCases are endpoint strings as benchmark tools record them
// (vLLM's --base-url, GuideLLM's target, genai-perf's --url, LLMPerf's
// OPENAI_API_BASE) and hostile ones: IPv6 literals with zones, userinfo,
// ports, no scheme, opaque forms, percent-escapes, empty, spaces and
// control bytes.
var endpointCases = []string{
	"", " ", "\t\n", "http://10.0.4.17:8000/v1", "http://localhost:8000", "localhost:9000",
	"https://api.openai.com/v1/chat/completions", "http://vllm-0.vllm.svc.cluster.local:8000/v1/completions",
	"  http://10.0.0.1:8000/v1  ", "10.0.0.1", "10.0.0.1:8000/v1", "HTTP://Example.COM:80/", "grpc://triton:8001",
	"http://[::1]:8000/v1", "[::1]:8000", "http://[fe80::1%25en0]:8080/", "http://[fe80::1%25en0%20x]/",
	"http://[fe80::1%en0]/", "http://[fe80::1%25]/", "http://[::ffff:10.0.0.1]:80", "http://[10.0.0.1]/",
	"http://[::1", "http://::1]/", "http://a[::1]/", "http://[::1]x/", "http://[::1]:80a/", "http://[]/",
	"http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1::2::3]/", "http://[12345::]/",
	"http://[::1.2.3.4]/", "http://[1:2:3:4:5:6:1.2.3.4]/", "http://[1:2:3:4:5:1.2.3.4]/", "http://[::01.2.3.4]/",
	"http://[::256.1.1.1]/", "http://[::1.2.3]/", "http://[fe80::1%25%41]/", "http://[fe80::1%25%0a]/",
	"http://[%66e80::1]/", "http://[fe80::%C3%A9]/", "http://[::]/", "http://[::%25x]/", "http://[:]/",
	"http://user:pass@10.0.0.1:8000/v1", "http://user@host", "http://us er@host/", "http://u%zz@host/",
	"http://p@ss@word@host:1/", "http://user:p%40ss@host/", "http://üser@host/", "http://@host/", "http://user@/",
	"http://host:port/", "http://host::80/", "http://a:1:2/", "postgres://h1:5432,h2:5433/db", "mongodb://a:1:2/",
	"http://host:/", "http://:80/", "http://%41host/", "http://h%C3%A9st/", "http://h%25st/", "http://h%2/",
	"http://h%zzst/", "http://hé.example/", "http://h\xffst/", "http://h st/", "http://h\x00st/", "http://h\x7fst/",
	"http://h^st/", "http://h|st/", "http://h{}st/", "http://h\\st/", "http://h`st/", "http://<h>\"'!$&()*+,;=_~/",
	"http://host/%zz", "http://host/a%2", "http://host/%41", "http://host?q=%zz", "http://host#%zz", "http://host#a\x01",
	"http://host#f%41", "http://host/p#", "http://host?", "http://host?a?b", "host/path?x=http://y", "mailto:a@b",
	"http:opaque", "http:/abs/path", "http:///three", "///three://", "//host/x://", "://host", ":9000", "*",
	"a:b://c", "1http://host/", "h+t.t-p://host/", "ht_tp://host/", "http://", "http://#frag", "http:// host/",
	"localhost:9000/?next=http://x", "[::1]://x", "http://a/b c", "http://host\u2028/", "http://host%00/",
	"http://host%20/", "http://ex%2Eample/", "HTTPS://a::b/", "Http://a:1:2/", "ftp://a:1:2/",
}

// TestURLHostParse: urlHost is url.Parse's Host on every case.
func TestURLHostParse(t *testing.T) {
	for _, s := range endpointCases {
		sameHost(t, s)
	}
}

func sameHost(t *testing.T, s string) {
	if got, want := urlHost(s), urlHostOracle(s); got != want {
		t.Errorf("urlHost(%q) = %q, url.Parse %q", s, got, want)
	}
}

// ipv6Cases are addresses netip.ParseAddr accepts and refuses.
var ipv6Cases = []string{
	"", "::", ":", ":::", "::1", "1::", "1::2", "fe80::1%en0", "fe80::1%", "%en0", "::%x", "1:2:3:4:5:6:7:8",
	"1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "::1:2:3:4:5:6:7:8",
	"1:2:3:4::5:6:7:8", "1::2::3", "12345::", "ffff::", "FFFF::", "fffg::", "::ffff:1.2.3.4", "::1.2.3.4",
	"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3", "::1.2.3.4.5",
	"::01.2.3.4", "::0.0.0.0", "::256.0.0.0", "::1..2.3", "::1.2.3.", "::.1.2.3", "::a.b.c.d", "1.2.3.4",
	"1:", ":1", "1:2:", "::1:", "1:::2", "0:0:0:0:0:0:0:0", "::1%25", "::1%%", "::1 ", " ::1", "::1.2.3.4%z",
}

// TestValidIPv6: validIPv6 is netip.ParseAddr's success on an IPv6
// address on every case.
func TestValidIPv6(t *testing.T) {
	for _, s := range ipv6Cases {
		sameIPv6(t, s)
	}
}

// FuzzURLHost: on any string urlHost is url.Parse's Host and validIPv6
// netip.ParseAddr's success on an IPv6 address.
func FuzzURLHost(f *testing.F) {
	for _, s := range append(slices.Clip(endpointCases), ipv6Cases...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameHost(t, s)
		sameIPv6(t, s)
	})
}

func sameIPv6(t *testing.T, s string) {
	a, err := netip.ParseAddr(s)
	if got, want := validIPv6(s), err == nil && !a.Is4(); got != want {
		t.Errorf("validIPv6(%q) = %v, netip.ParseAddr %v", s, got, want)
	}
}
