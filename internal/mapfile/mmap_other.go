//go:build !unix

package mapfile

import (
	"errors"
	"os"
)

func mmap(*os.File, int) ([]byte, error) { return nil, errors.New("no memory maps here") }

func release([]byte) {}

func munmap([]byte) error { return nil }
