package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Machine describes the host: CPU model and count from /proc/cpuinfo,
// memory from /proc/meminfo, the kernel, and the Go toolchain.
func Machine() []string {
	var out []string
	model, n := cpuinfo()
	out = append(out, fmt.Sprintf("CPU: %s × %d (GOMAXPROCS %d)", model, n, runtime.GOMAXPROCS(0)))
	if mem := meminfo("MemTotal"); mem != "" {
		out = append(out, "Memory: "+mem)
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		out = append(out, fmt.Sprintf("Kernel: %s %s", runtime.GOOS, strings.TrimSpace(string(b))))
	}
	gov := runtime.Version()
	if b, err := exec.Command("go", "version").Output(); err == nil {
		gov = strings.TrimSpace(string(b))
	}
	out = append(out, "Go: "+gov)
	return out
}

func cpuinfo() (model string, n int) {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH, runtime.NumCPU()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			n++
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		}
	}
	if model == "" {
		model = runtime.GOARCH
	}
	return model, n
}

func meminfo(key string) string {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && k == key {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return ""
}

// LoadAvg returns /proc/loadavg's 1, 5 and 15 minute averages as text.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
