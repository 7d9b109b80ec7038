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
// critical path of a warm analyze that takes 30–40 ms. A signal that lands before the registration ends the process as
// one during initialisation always did (the default action); stop does
// not wait for the goroutine to unregister.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopped := make(chan struct{})
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(c)
		select {
		case s := <-c:
			cancel(signalError(s.String() + " signal received"))
			<-stopped
		case <-stopped:
		}
	}()
	return ctx, sync.OnceFunc(func() { cancel(nil); close(stopped) })
}

// signalError is the cause of interruptContext's cancellation, as
// os/signal's: its text names the signal, and it is context.Canceled.
type signalError string

func (s signalError) Error() string { return string(s) }

func (s signalError) Is(target error) bool { return target == context.Canceled }
