// Package compare sets a parser's own trace of the field reads it made beside
// dembug's decode of the same replay and finds the first read where the two
// part: a different bit count, bit offset or value, a read one side made and
// the other did not, or the same reads in another order.
//
// A trace is JSON lines, one object per field read, with the keys `dembug
// trace` prints: tick, entity and name are required, value too; bit_offset
// (from the start of the message's entity data), bits, decoder, message,
// command, path, class and in ("baseline") are optional.
//
// Files:
//
//	read.go      Read, ParseTrace (their trace), BitString
//	scan.go      the fast path of trace parsing: a plain-line scanner, an arena
//	ours.go      our reads from a decode (Ours, Decode, CompareReplay)
//	compare.go   the comparison: Compare, Comparer (tick by tick), Result,
//	             Difference, Scope; realignment of reordered reads
//	value.go     value equality across parsers (SameValue, Float32Equal)
//	sentence.go  Difference.Sentence: a difference in words
package compare
