package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptContext is signal.NotifyContext(context.Background(),
// os.Interrupt, syscall.SIGTERM) — cancelled at the first SIGINT or
// SIGTERM with the same cause, the signals caught until stop — with the
// registration made on a goroutine of its own instead of before the
// command starts. Registering is a handshake per signal with a goroutine
// locked to a new thread (os/signal's mask keeper), and starts two more
// (the receiving loop's, and the runtime's template thread): at least
// 0.6 ms of wall time, 4.5 ms in the median, for a program doing only
// that on the benchmarks' virtual machine under load (40 runs), on the
// critical path of a warm analyze that takes 30–40 ms. The registration
// overlaps the command's start (flag parsing, the flag set); a command's
// work waits for it (awaitSignals, in runCommand), so a signal during
// any phase of the work ends it with the cause and exit 130. Before,
// nothing waited: on a loaded 2-core machine the goroutine could still
// be unscheduled when a 90 MB sample_idx_map.json was being parsed, and
// a SIGTERM then killed the process by the default action (half of 30
// runs under two CPU hogs; TestSIGTERMDuringSampleIndex). A signal that
// lands during initialisation or flag parsing still ends the process as
// it always did (the default action); stop does not wait for the
// goroutine to unregister.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopped := make(chan struct{})
	ready := make(chan struct{})
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		close(ready)
		defer signal.Stop(c)
		select {
		case s := <-c:
			cancel(signalError(s.String() + " signal received"))
			<-stopped
		case <-stopped:
		}
	}()
	ctx = context.WithValue(ctx, signalsReadyKey{}, (<-chan struct{})(ready))
	return ctx, sync.OnceFunc(func() { cancel(nil); close(stopped) })
}

// signalsReadyKey is the context key of interruptContext's channel that
// closes once SIGINT and SIGTERM are caught.
type signalsReadyKey struct{}

// awaitSignals returns once the signals of ctx's interruptContext are
// caught (at once for a context without one, as tests pass), or ctx is
// done.
func awaitSignals(ctx context.Context) {
	if ready, ok := ctx.Value(signalsReadyKey{}).(<-chan struct{}); ok {
		select {
		case <-ready:
		case <-ctx.Done():
		}
	}
}

// signalError is the cause of interruptContext's cancellation, as
// os/signal's: its text names the signal, and it is context.Canceled.
type signalError string

func (s signalError) Error() string { return string(s) }

func (s signalError) Is(target error) bool { return target == context.Canceled }
