// Package evidence gathers, on the decode pass itself, what the values of a
// field read by the default decoder (an unsigned 32-bit varint: the
// fallback for a type decoder choice does not know) say about how the field
// was really written. Two misreads leave every bit in place and change only
// the numbers:
//
//   - a signed type read unsigned. A zigzag varint of a value that is
//     mostly zero or positive reads unsigned as twice the value (8 reads
//     16), and its few negatives read as small odd numbers (-1 reads 1,
//     -2 reads 3). Nonzero values nearly all even, the odd ones small, is
//     that signature; an unsigned enum or id has both parities.
//   - a 64-bit type read into 32 bits. A varint of more than 32 bits still
//     fits the five bytes a 32-bit read allows up to 35 bits, and the read
//     keeps the low 32 (item id 25787853485 reads 18049709).
//
// A Tally is a handful of counters per watched field, updated per value
// without allocating; a Set holds the tallies of one decode and forgets the
// values of a message that misaligned (they are garbage). Judge says what a
// name's merged tallies show, and how much it rests on.
//
// Files:
//
//	tally.go  Tally (per-field counters, Add, Merge) and Set (one decode's tallies)
//	judge.go  Kind, Verdict, Judge: what merged tallies show; the zigzag test
package evidence
