package session

import "unsafe"

// slabs hands out the index's slabs (update records, messages), made and
// touched ahead on a goroutine of their own: a 100 MB replay's index is
// hundreds of MiB of fresh pages, and the first write to each page is a
// kernel fault that would otherwise stall the index pass itself (a tenth
// of its time, measured), while the debugger's second core sits idle.
type slabs[T any] struct {
	size int // elements a slab holds
	next chan []T
	quit chan struct{}
}

// newSlabs starts making slabs of size elements, one ahead.
func newSlabs[T any](size int) *slabs[T] {
	s := &slabs[T]{size: size, next: make(chan []T, 1), quit: make(chan struct{})}
	go s.fill()
	return s
}

func (s *slabs[T]) fill() {
	for {
		b := make([]T, s.size)
		touch(b)
		select {
		case s.next <- b[:0]:
		case <-s.quit:
			return
		}
	}
}

// touch writes to every page of b (zeros, as it holds).
func touch[T any](b []T) {
	var zero T
	step := max(1, 4096/max(1, int(unsafe.Sizeof(zero))))
	for i := 0; i < len(b); i += step {
		b[i] = zero
	}
}

// get returns an empty slab, made now if none is ready.
func (s *slabs[T]) get() []T {
	select {
	case b := <-s.next:
		return b
	default:
		return make([]T, 0, s.size)
	}
}

// stop ends the making; a slab made and not taken is garbage.
func (s *slabs[T]) stop() {
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
}
