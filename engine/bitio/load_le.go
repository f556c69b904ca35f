//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package bitio

import "unsafe"

// load64 returns the 8 bytes at buf[i:] as a little-endian integer. The
// caller guarantees i+8 <= len(buf). On little-endian machines this is one
// unaligned load, cheap enough to keep Window inlinable.
func load64(buf []byte, i uint) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), i))
}
