//go:build unix

package digest

import "syscall"

// LimitMemory caps the process's address space at 4 GiB: a parser that
// misreads a length can ask for tens of gigabytes, and the Go runtime's
// fatal "out of memory" is its reading's end, not the machine's.
func LimitMemory() {
	lim := syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
}
