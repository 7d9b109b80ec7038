package sidecar

import (
	"encoding/json"
	"strings"
)

// EndpointLabel is RunInfo.Endpoint: the API type (or backend) and the
// hosts of the recorded server URLs, space-separated, e.g. "openai
// 10.0.4.17:8000". Only the host (and port) of a URL is kept: paths,
// queries and credentials never reach the rows. Empty parts are left out.
func EndpointLabel(kind string, urls ...string) string {
	var hosts []string
	for _, u := range urls {
		if h := urlHost(u); h != "" {
			hosts = append(hosts, h)
		}
	}
	parts := []string{}
	if kind = strings.TrimSpace(kind); kind != "" {
		parts = append(parts, kind)
	}
	if len(hosts) > 0 {
		parts = append(parts, strings.Join(hosts, ","))
	}
	return strings.Join(parts, " ")
}

// FirstText is a JSON string, or the first string of a JSON list of
// strings ("" otherwise): GuideLLM records its data argument either way.
func FirstText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		return list[0]
	}
	return ""
}
