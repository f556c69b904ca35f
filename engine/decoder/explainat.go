package decoder

import "github.com/dembug/dembug/engine/bitio"

// ExplainAt walks d's read at bit start of data through (Explain): the
// steps, the bits the walk used, and whether it ran past the data's end.
func ExplainAt(d *Decoder, data []byte, start uint) (steps []Step, used uint, overflowed bool) {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(start)
	_, steps = d.Explain(&r)
	return steps, r.Pos() - start, r.Overflowed()
}
