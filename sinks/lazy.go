package sinks

import "sync"

// lazy is a value built on its first use. Not a sync.OnceValue variable:
// that one's closure is made at package initialisation, which every
// steadysweep process runs (issue 32); a sync.Once is static.
type lazy[T any] struct {
	once sync.Once
	v    T
}

// get returns the value, building it with build on the first call.
func (l *lazy[T]) get(build func() T) T {
	l.once.Do(func() { l.v = build() })
	return l.v
}
