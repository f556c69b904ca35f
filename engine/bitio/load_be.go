//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package bitio

import "encoding/binary"

// load64 returns the 8 bytes at buf[i:] as a little-endian integer; the
// caller guarantees i+8 <= len(buf).
func load64(buf []byte, i uint) uint64 { return binary.LittleEndian.Uint64(buf[i:]) }
