package columnar

import (
	"context"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

func TestEndpointLabel(t *testing.T) {
	for _, c := range []struct {
		kind string
		urls []string
		want string
	}{
		{"openai", []string{"http://10.0.4.17:8000"}, "openai 10.0.4.17:8000"},
		{"chat", []string{"localhost:9000"}, "chat localhost:9000"},
		{"openai_http", []string{"https://user:secret@api.example.com/v1/completions?key=x"}, "openai_http api.example.com"},
		{"sglang", []string{"http://a:1", "", "http://b:2"}, "sglang a:1,b:2"},
		{"", []string{"http://h:1"}, "h:1"},
		{"openai", nil, "openai"},
		{" ", []string{"%zz"}, ""},
	} {
		if got := sidecar.EndpointLabel(c.kind, c.urls...); got != c.want {
			t.Errorf("endpointLabel(%q, %q) = %q, want %q", c.kind, c.urls, got, c.want)
		}
	}
}

// TestSidecarEndpointAndDataset: the endpoints format's endpoint and
// dataset name come from config.yaml (read here on its own).
func TestSidecarEndpointAndDataset(t *testing.T) {
	const dir = "testdata/small_run"
	b, err := os.ReadFile(dir + "/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Datasets []struct{ Name, Type string } `yaml:"datasets"`
		Endpoint struct {
			Endpoints []string `yaml:"endpoints"`
			APIType   string   `yaml:"api_type"`
		} `yaml:"endpoint_config"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	run, err := ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(cfg.Endpoint.Endpoints[0], "http://")
	if want := cfg.Endpoint.APIType + " " + host; run.Info.Endpoint != want {
		t.Errorf("endpoint %q, want %q", run.Info.Endpoint, want)
	}
	if cfg.Datasets[0].Type != "performance" || run.Info.DatasetName != cfg.Datasets[0].Name {
		t.Errorf("dataset %q, config %+v", run.Info.DatasetName, cfg.Datasets)
	}
	if run.Info.EpochClock {
		t.Error("the endpoints client's monotonic clock read as epoch")
	}
}
