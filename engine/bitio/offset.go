package bitio

import "fmt"

// Offset formats a bit position as byte.bit in hex, e.g. 0x1a.3, the
// notation dembug uses everywhere a bit position is shown.
func Offset(bit uint) string {
	return fmt.Sprintf("0x%x.%d", bit>>3, bit&7)
}

// Size formats a bit count as "2 bytes 5 bits", "1 byte", "7 bits".
func Size(bits uint) string {
	by, bi := bits>>3, bits&7
	unit := func(n uint, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	switch {
	case by == 0:
		return unit(bi, "bit", "bits")
	case bi == 0:
		return unit(by, "byte", "bytes")
	}
	return unit(by, "byte", "bytes") + " " + unit(bi, "bit", "bits")
}
