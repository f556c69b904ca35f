//go:build unix

package mapfile

import (
	"os"

	"golang.org/x/sys/unix"
)

func mmap(f *os.File, size int) ([]byte, error) {
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = unix.Madvise(data, unix.MADV_SEQUENTIAL)
	return data, nil
}

func release(data []byte) { _ = unix.Madvise(data, unix.MADV_DONTNEED) }

func munmap(data []byte) error { return unix.Munmap(data) }
