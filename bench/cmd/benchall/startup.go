package main

import (
	"bytes"
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/steadysweep/steadysweep/bench"
)

var startupRunsFlag = flag.Int("startup-runs", 30, "fresh processes of each command in the startup section (-quick: 5)")

// Issue 32's start-up goals: `steadysweep --version` ≤ 10 ms CPU and
// ≤ 12 MB RSS; a warm analyze of a small run ≤ 30 ms.
const (
	versionCPUGoal = 0.010 // s
	versionRSSGoal = 12e6  // bytes (MB = 10^6 bytes, as everywhere here)
	warmSmallGoal  = 0.030 // s, read as wall
)

// helloSource is the anchor: the least a static Go program costs to start
// on this machine (runtime, one write).
const helloSource = `package main

import "os"

func main() { os.Stdout.WriteString("hello, world\n") }
`

// launcherSource starts one command and prints its own rusage from wait4.
// benchall cannot start the command itself: Go starts children with vfork
// semantics, and exec folds the parent's peak RSS into the child's
// ru_maxrss, so a direct child of benchall (hundreds of MB after other
// sections) would report benchall's peak. GNU time (bench.RunChild) avoids
// that but prints CPU in 10 ms steps and adds its own start (dynamic, ~100
// page faults) to the CPU that wait4 reports. This launcher is a static Go
// program that imports only syscall and time (package os alone adds
// ~0.1 MB to it, which a hello-world's max RSS then shows): it reads its
// arguments from /proc/self/cmdline, resets its own peak to its current
// size (/proc/self/clear_refs) and starts the command; it prints that size
// as floor_kb: a max RSS at or below it is the launcher's, not the
// command's.
const launcherSource = `package main

import (
	"syscall"
	"time"
)

func fail(msg string) {
	syscall.Write(2, []byte("launcher: "+msg+"\n"))
	syscall.Exit(1)
}

// read returns a /proc file of at most 16 KiB.
func read(path string) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY, 0)
	if err != nil {
		fail(path + ": " + err.Error())
	}
	defer syscall.Close(fd)
	buf := make([]byte, 16<<10)
	n, err := syscall.Read(fd, buf)
	if err != nil || n == len(buf) {
		fail(path + ": cannot read it whole")
	}
	return buf[:n]
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// hwm is the digits of VmHWM (kB) in /proc/self/status.
func hwm() string {
	st := string(read("/proc/self/status"))
	for i := 0; i+6 <= len(st); i++ {
		if st[i:i+6] == "VmHWM:" {
			d := ""
			for j := i + 6; j < len(st) && st[j] != '\n'; j++ {
				if st[j] >= '0' && st[j] <= '9' {
					d += st[j : j+1]
				}
			}
			return d
		}
	}
	return "0"
}

func main() {
	var argv []string
	cmdline := string(read("/proc/self/cmdline"))
	for s, i := 0, 0; i < len(cmdline); i++ {
		if cmdline[i] == 0 {
			argv, s = append(argv, cmdline[s:i]), i+1
		}
	}
	if len(argv) < 2 {
		fail("usage: launcher COMMAND [ARG...]")
	}
	argv = argv[1:]
	null, err := syscall.Open("/dev/null", syscall.O_WRONLY, 0)
	if err != nil {
		fail(err.Error())
	}
	if fd, err := syscall.Open("/proc/self/clear_refs", syscall.O_WRONLY, 0); err == nil {
		syscall.Write(fd, []byte("5"))
		syscall.Close(fd)
	}
	floor := hwm()
	t0 := time.Now()
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: syscall.Environ(), Files: []uintptr{0, uintptr(null), 2}})
	if err != nil {
		fail(argv[0] + ": " + err.Error())
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	if _, err := syscall.Wait4(pid, &ws, 0, &ru); err != nil {
		fail(err.Error())
	}
	wall := time.Since(t0)
	if !ws.Exited() || ws.ExitStatus() != 0 {
		if ws.Signaled() {
			fail(argv[0] + ": " + ws.Signal().String())
		}
		fail(argv[0] + ": exit status " + itoa(int64(ws.ExitStatus())))
	}
	syscall.Write(1, []byte("wall_ns="+itoa(wall.Nanoseconds())+" cpu_ns="+itoa(ru.Utime.Nano()+ru.Stime.Nano())+
		" maxrss_kb="+itoa(ru.Maxrss)+" minflt="+itoa(ru.Minflt)+" floor_kb="+floor+"\n"))
}
`

// scaled is xs times k (seconds to ms, bytes to MB).
func scaled(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

// startupRun is one fresh process as the launcher reports it.
type startupRun struct {
	child   bench.Child // Wall, CPU (user+sys), MaxRSS (bytes)
	minflt  float64     // minor page faults
	floorKB int64       // the launcher's resident size when it started the child
}

// parseStartupRun reads the launcher's line
// "wall_ns=… cpu_ns=… maxrss_kb=… minflt=… floor_kb=…".
func parseStartupRun(line string) (startupRun, error) {
	var wall, cpu, rss, flt, floor int64
	if _, err := fmt.Sscanf(line, "wall_ns=%d cpu_ns=%d maxrss_kb=%d minflt=%d floor_kb=%d", &wall, &cpu, &rss, &flt, &floor); err != nil {
		return startupRun{}, fmt.Errorf("launcher output %q: %w", line, err)
	}
	if min(wall, cpu, rss, flt, floor) < 0 {
		return startupRun{}, fmt.Errorf("launcher output %q: a negative count", line)
	}
	return startupRun{
		child:   bench.Child{Wall: float64(wall) / 1e9, CPU: float64(cpu) / 1e9, MaxRSS: rss << 10, MinFlt: flt},
		minflt:  float64(flt),
		floorKB: floor,
	}, nil
}

// startupCmd is one command of the section and its runs.
type startupCmd struct {
	name   string
	argv   []string
	env    []string // nil: this process's
	cs     []bench.Child
	faults []float64
	floor  int64 // largest floor_kb of its runs, bytes
}

func (c *startupCmd) add(r startupRun) {
	c.cs, c.faults = append(c.cs, r.child), append(c.faults, r.minflt)
	c.floor = max(c.floor, r.floorKB<<10)
}

// startupMedians are one command's medians: seconds and bytes.
type startupMedians struct{ cpu, wall, rss float64 }

func (c *startupCmd) medians() startupMedians {
	return startupMedians{cpu: bench.Median(cpus(c.cs)), wall: bench.Median(walls(c.cs)), rss: bench.Median(rsss(c.cs))}
}

// startupTargets are the summary rows of the start-up goals: --version's
// CPU and RSS medians against 10 ms and 12 MB (both must hold), and the
// warm small analyze's median wall against 30 ms — read as wall, the time
// a user waits, as the other latency goals; its CPU is reported
// and judged beside it. warm is nil when it was not measured (why).
func startupTargets(version startupMedians, warm *startupMedians, why string) []target {
	ts := []target{{
		key:      "i32-version",
		name:     "`steadysweep --version` (static build)",
		goal:     "≤ 10 ms CPU, ≤ 12 MB RSS",
		measured: fmt.Sprintf("%.1f ms CPU, %.1f MB RSS (%.1f ms wall)", version.cpu*1e3, version.rss/1e6, version.wall*1e3),
		ratio:    fmt.Sprintf("%.2f× the CPU budget, %.2f× the RSS budget", version.cpu/versionCPUGoal, version.rss/versionRSSGoal),
		verdict:  verdictBoth(versionCPUGoal/version.cpu, versionRSSGoal/version.rss),
	}}
	if warm == nil {
		return append(ts, target{key: "i32-warm-small", name: "warm analyze of a small run", goal: "≤ 30 ms wall", measured: "not measured (" + why + ")", ratio: "–", verdict: "not measured"})
	}
	return append(ts, target{
		key:      "i32-warm-small",
		name:     "warm zero-flag analyze of a small run (conc_clean_ramp, cache hit)",
		goal:     "≤ 30 ms wall (CPU beside it)",
		measured: fmt.Sprintf("%.1f ms wall, %.1f ms CPU", warm.wall*1e3, warm.cpu*1e3),
		ratio:    fmt.Sprintf("%.2f× the budget (wall), %.2f× (CPU)", warm.wall/warmSmallGoal, warm.cpu/warmSmallGoal),
		verdict:  fmt.Sprintf("wall %s; CPU %s", verdict(warmSmallGoal/warm.wall, 1, ""), verdict(warmSmallGoal/warm.cpu, 1, "")),
	})
}

// isStatic reports whether the ELF file at path has no program
// interpreter (ld.so): a static executable.
func isStatic(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return !slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP }), nil
}

// buildSource writes the one-file program src next to out and builds it.
func buildSource(e *env, src, out string) error {
	if err := os.WriteFile(out+".go", []byte(src), 0o644); err != nil {
		return err
	}
	e.logf("building %s", out)
	return goBuildStatic(e, out+".go", out)
}

// ensureLauncher builds launcherSource into the work directory once.
func ensureLauncher(e *env) (string, error) {
	if e.launcher != "" {
		return e.launcher, nil
	}
	out := filepath.Join(e.work, "launcher")
	if err := buildSource(e, launcherSource, out); err != nil {
		return "", err
	}
	e.launcher = out
	return out, nil
}

// launch runs argv (env: nil for this process's) through the launcher
// (ensureLauncher first) and returns what it reports: the command's own
// wall (fork to reap), CPU, peak RSS and minor faults, with nothing of a
// wrapper's start in them (GNU time, bench.RunChild's, adds its own exec
// of a dynamic binary to the wall: milliseconds on this VM, a tenth of a
// 30 ms goal).
func launch(e *env, argv, env []string) (startupRun, error) {
	cmd := exec.CommandContext(e.ctx, e.launcher, argv...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return startupRun{}, fmt.Errorf("%q: %w: %s", argv, err, stderr.String())
	}
	return parseStartupRun(string(out))
}

// goBuildStatic builds the one-file program src into out as make build
// builds steadysweep (CGO_ENABLED=0).
func goBuildStatic(e *env, src, out string) error {
	cmd := exec.CommandContext(e.ctx, "go", "build", "-o", out, src)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w: %s", src, err, stderr.String())
	}
	return nil
}

// startupSection measures issue 32's start-up goals: fresh processes of
// `steadysweep --version`, a static Go hello-world (the floor of this
// machine) and a warm zero-flag analyze of a small parity run, each started
// by the launcher, interleaved run by run.
func startupSection(e *env) (string, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## Start-up (issue 32; `benchall -sections startup`)\n\n")
	dir := filepath.Join(e.work, "startup")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	hello := filepath.Join(dir, "hello")
	if err := buildSource(e, helloSource, hello); err != nil {
		return "", err
	}
	if _, err := ensureLauncher(e); err != nil {
		return "", err
	}
	cmds := []*startupCmd{
		{name: "`steadysweep --version`", argv: []string{e.bin, "--version"}},
		{name: "static Go hello-world", argv: []string{hello}},
	}
	run := filepath.Join(e.shared, "parity", "runs", "conc_clean_ramp")
	why := missingShared(e, run)
	if why == "" {
		hub, _, err := gptossHub(e, filepath.Join(dir, "hf", "hub"))
		if err != nil {
			return "", err
		}
		warm := &startupCmd{name: "warm zero-flag analyze of conc_clean_ramp", argv: []string{e.bin, "analyze", run, "--cache-dir", filepath.Join(dir, "cache")}, env: hubEnv(hub)}
		fill := exec.CommandContext(e.ctx, warm.argv[0], warm.argv[1:]...)
		fill.Env = warm.env
		e.logf("startup: filling the cache (untimed)")
		if _, err := bench.RunChild(fill); err != nil {
			return "", err
		}
		cmds = append(cmds, warm)
	}
	n := *startupRunsFlag
	if e.quick {
		n = min(n, 5)
	}
	for i := range n {
		if i%10 == 0 {
			e.logf("startup: run %d/%d of each", i+1, n)
		}
		for _, c := range cmds {
			r, err := launch(e, c.argv, c.env)
			if err != nil {
				return "", err
			}
			c.add(r)
		}
	}

	static := map[string]string{}
	for _, p := range []string{e.bin, hello} {
		switch ok, err := isStatic(p); {
		case err != nil:
			static[p] = fmt.Sprintf("not an ELF file (%v)", err)
		case ok:
			static[p] = "static"
		default:
			static[p] = "**dynamic** (ld.so and libc load at every start)"
		}
	}
	built := "built by `make build` (`-bin`)"
	if *binFlag == "" {
		built = "built by benchall from this tree"
	}
	fmt.Fprintf(&b, "`%s` %s with `CGO_ENABLED=0` (%s), and a Go hello-world (`os.Stdout.WriteString`) built the same way (%s): "+
		"the floor of a Go process on this machine. Each command runs %d times as a fresh process, the commands interleaved run by run; "+
		"each process is started by a small static launcher that reports the child's own `wait4` rusage: CPU = user+system, "+
		"max RSS = `ru_maxrss`, minor page faults = `ru_minflt`; wall = fork to reap. Median (min–max); MB = 10^6 bytes. "+
		"Load average at the end: %s (the cores: see Machine) — CPU time and page faults are what the load changes least; wall is inflated "+
		"whenever the load exceeds the cores.\n\n",
		filepath.Base(e.bin), built, static[e.bin], static[hello], n, bench.LoadAvg())
	fmt.Fprintf(&b, "```sh\nsteadysweep --version\nhello\n")
	if why == "" {
		fmt.Fprintf(&b, "HF_HUB_CACHE=HUB steadysweep analyze ../shared/parity/runs/conc_clean_ramp --cache-dir CACHE   # CACHE filled by one untimed run; "+
			"HUB holds gpt-oss's tokenizer.json, which the run's config.yaml names\n")
	}
	fmt.Fprintf(&b, "```\n\n")
	hw := cmds[1]
	fmt.Fprintf(&b, "| command | runs | CPU ms | wall ms | max RSS MB | minor faults | CPU ÷ hello-world |\n|---|---:|---:|---:|---:|---:|---:|\n")
	floor := int64(0)
	for _, c := range cmds {
		floor = max(floor, c.floor)
	}
	for _, c := range cmds {
		rss := fmtRange(scaled(rsss(c.cs), 1e-6), "%.1f")
		if bench.Median(rsss(c.cs)) <= float64(floor) {
			rss += " (≤ the launcher's: an upper bound)"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %.2f× |\n", c.name, len(c.cs), fmtRange(scaled(cpus(c.cs), 1e3), "%.1f"), fmtRange(scaled(walls(c.cs), 1e3), "%.1f"),
			rss, fmtRange(c.faults, "%.0f"), bench.Median(cpus(c.cs))/bench.Median(cpus(hw.cs)))
	}
	fmt.Fprintf(&b, "\nThe launcher was at most %.1f MB resident when it started a command: exec folds the parent's peak into the child's "+
		"max RSS (vfork), so a figure at or below that may be the launcher's, and the command's own peak is at most it.\n\n", float64(floor)/1e6)
	if why != "" {
		fmt.Fprintf(&b, "The warm analyze was **not measured**: %s.\n\n", why)
	}
	var warm *startupMedians
	if why == "" {
		m := cmds[2].medians()
		warm = &m
	}
	e.targets = append(e.targets, startupTargets(cmds[0].medians(), warm, why)...)
	return b.String(), nil
}
