package ui

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/views"
)

// maxOpsShown bounds the op stream listed (an update of a big class
// writes hundreds of fields).
const maxOpsShown = 400

// ExplainOps lists an update's whole field-path op stream in reading
// order (o): each op's name, its Huffman code and operand bits as read,
// where it starts, and the path before → after; the finish op last. The
// op of field sel is marked.
func ExplainOps(data []byte, rec *provenance.Message, ui, sel int) views.InspectorSection {
	u := &rec.Updates[ui]
	fs := rec.UpdateFields(ui)
	var l []views.InspectorLine
	pathLen := 1 // the path before the op: [-1] at first
	line := func(i int, o fieldpath.OpRecord, before, after string) {
		code := fieldpath.CodeOf(o.Op)
		var r bitio.Reader
		r.Reset(data)
		r.Seek(o.Start)
		bits := bitio.Spell(r.Bits64(uint(code.Len)), uint(code.Len))
		if n := o.Bits - min(o.Bits, uint(code.Len)); n > 0 {
			bits += " | " + operandBits(data, o.Start+uint(code.Len), n, o.Op, pathLen)
		}
		label, st := fmt.Sprintf(" %d", i), views.LinePlain
		if i == sel {
			label, st = fmt.Sprintf(">%d", i), views.LinePath
		}
		l = append(l, views.InspectorLine{Label: label, Text: fmt.Sprintf("%s  %s  @%s  %s → %s", o.Op, bits, bitio.Offset(o.Start), before, after), Style: st})
	}
	before := "[-1]"
	for i := range fs {
		if i == maxOpsShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more ops", len(fs)-maxOpsShown), Style: views.LineDim})
			break
		}
		after := fs[i].Path.String()
		line(i, fs[i].Op, before, after)
		before, pathLen = after, fs[i].Path.Len()
	}
	if u.PathBits > 0 {
		fc := fieldpath.CodeOf(fieldpath.Finish)
		end := u.PathStart + u.PathBits
		line(len(fs), fieldpath.OpRecord{Op: fieldpath.Finish, Start: end - uint(fc.Len), Bits: uint(fc.Len)}, before, "end of paths")
	}
	title := fmt.Sprintf("Field-path ops · %d ops in %s (o hides)", len(fs)+1, bitio.Size(u.PathBits))
	if len(l) == 0 {
		l = append(l, views.InspectorLine{Text: "This update reads no field paths.", Style: views.LineDim})
	}
	return views.InspectorSection{Title: title, Lines: l}
}

// operandBits spells an op's n operand bits at bit at, one group per
// operand as fieldpath.ReadOperands reads them, each with its value
// ("01 0011=12 1=1"): bits in read order, the value as read (before the
// op adds to it). Operands that do not read back as n bits are spelled as
// raw bits alone.
func operandBits(data []byte, at, n uint, op fieldpath.Op, pathLen int) string {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(at)
	ops, err := fieldpath.ReadOperands(&r, op, pathLen)
	raw := func() string {
		r.Reset(data)
		r.Seek(at)
		k := min(n, 64)
		return bitio.Spell(r.Bits64(k), k)
	}
	if err != nil || r.Pos() != at+n {
		return raw()
	}
	// Read again operand by operand, as ReadOperands read them, for each
	// one's bits.
	r.Reset(data)
	r.Seek(at)
	parts := make([]string, 0, len(ops))
	for _, o := range ops {
		from := r.Pos()
		switch o.Form {
		case fieldpath.FormBits:
			r.Bits(uint(o.N))
		case fieldpath.FormUBitVar:
			r.UBitVar()
		case fieldpath.FormUBitVarFP:
			r.UBitVarFP()
		case fieldpath.FormVarInt32:
			r.VarInt32()
		}
		k := r.Pos() - from
		var s bitio.Reader
		s.Reset(data)
		s.Seek(from)
		spelled := ""
		for k > 0 {
			c := min(k, 64)
			spelled += bitio.Spell(s.Bits64(c), c)
			k -= c
		}
		parts = append(parts, fmt.Sprintf("%s=%d", spelled, o.V))
	}
	return strings.Join(parts, " ")
}
