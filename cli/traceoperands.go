package cli

import (
	"strconv"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/fieldpath"
)

// appendOperandValues writes an op's operands as numbers (trace --ops'
// "operand_values"), in reading order and as read, before the op adds to
// them (the forms and effects are dembug ops'); pathLen is the length of
// the path before the op. Nothing is written when they do not read.
func appendOperandValues(b []byte, data []byte, o fieldpath.OpRecord, pathLen int) []byte {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(o.Start + uint(fieldpath.CodeOf(o.Op).Len))
	ops, err := fieldpath.ReadOperands(&r, o.Op, pathLen)
	if err != nil || len(ops) == 0 || r.Pos() != o.Start+o.Bits {
		return b
	}
	b = append(b, `,"operand_values":[`...)
	for i, x := range ops {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x.V, 10)
	}
	return append(b, ']')
}
