//go:build !unix

package digest

// LimitMemory does nothing where there is no address-space limit to set.
func LimitMemory() {}
