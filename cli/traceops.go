package cli

import (
	"strconv"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
)

// appendTraceOps writes an update's field-path op stream (trace --ops):
// one JSON object per op, in reading order, each with its name, Huffman
// code, where its bits are, the operand's bits after the code, and the path
// before and after it; the finish op that ends the paths last (its path
// null). data is the entity data the offsets count in.
func appendTraceOps(b []byte, loc session.Location, u *provenance.EntityUpdate, fields []provenance.Field, data []byte) []byte {
	prev := []int32{-1}
	op := func(o fieldpath.OpRecord, path []int32) {
		code := fieldpath.CodeOf(o.Op)
		b = appendTraceHead(b, loc, u)
		b = append(b, `,"op":`...)
		b = strconv.AppendQuote(b, o.Op.String())
		b = append(b, `,"code":"`...)
		b = append(b, code.String()...)
		b = append(b, `","bit_offset":`...)
		b = strconv.AppendUint(b, uint64(o.Start), 10)
		b = append(b, `,"at":`...)
		b = appendAt(b, o.Start)
		b = append(b, `,"bits":`...)
		b = strconv.AppendUint(b, uint64(o.Bits), 10)
		b = append(b, `,"code_bits":`...)
		b = strconv.AppendUint(b, uint64(code.Len), 10)
		n := o.Bits - min(o.Bits, uint(code.Len))
		b = append(b, `,"operand_bits":`...)
		b = strconv.AppendUint(b, uint64(n), 10)
		if n > 0 && data != nil {
			var r bitio.Reader
			r.Reset(data)
			r.Seek(o.Start + uint(code.Len))
			k := min(n, 64)
			b = append(b, `,"operand":"`...)
			b = append(b, bitio.Spell(r.Bits64(k), k)...)
			b = append(b, '"')
			b = appendOperandValues(b, data, o, len(prev))
		}
		b = append(b, `,"path_before":`...)
		b = appendPath(b, prev)
		b = append(b, `,"path":`...)
		if path == nil {
			b = append(b, "null"...)
		} else {
			b = appendPath(b, path)
		}
		b = append(b, "}\n"...)
	}
	for i := range fields {
		p := fields[i].Path.Slice()
		op(fields[i].Op, p)
		prev = p
	}
	if u.PathBits > 0 {
		fc := fieldpath.CodeOf(fieldpath.Finish)
		end := u.PathStart + u.PathBits
		op(fieldpath.OpRecord{Op: fieldpath.Finish, Start: end - uint(fc.Len), Bits: uint(fc.Len)}, nil)
	}
	return b
}

func appendPath(b []byte, p []int32) []byte {
	b = append(b, '[')
	for i, idx := range p {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(idx), 10)
	}
	return append(b, ']')
}
