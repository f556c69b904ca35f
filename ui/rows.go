package ui

import (
	"fmt"
	"strconv"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// fieldRows turns an update's recorded fields into field-table rows; rep
// (the message's diagnosis, whose field index of fs[0] is first) grades
// each field's anomalies, those keep leaves out muted ones (nil: none).
func fieldRows(fs []provenance.Field, rep *diagnose.Report, first int, keep func([]diagnose.Anomaly, string) []diagnose.Anomaly) []views.FieldRow {
	rows := make([]views.FieldRow, len(fs))
	for i := range fs {
		f := &fs[i]
		typ := ""
		if f.Schema != nil {
			typ = f.Schema.VarType
		}
		rows[i] = views.FieldRow{
			Path: f.Path.String(), Name: f.Name, Type: typ, Decoder: f.Decoder.Short(),
			Offset: views.Offset(f.Start), Bits: f.Bits, Value: f.Value.TextAs(f.Decoder),
		}
		as := rep.FieldAnomalies(first, i)
		if keep != nil {
			as = keep(as, f.Name)
		}
		rows[i].Sev = severity(as)
	}
	return rows
}

// updateSpans lays out one update's bits for the bitstream view: the
// header, each field's path op, the finish op, then each field's value.
// It returns the spans and, per field, the index of its value span.
func updateSpans(rec *provenance.Message, u int) (spans []views.Span, valueSpan []int, header int) {
	up := &rec.Updates[u]
	fs := rec.UpdateFields(u)
	if up.HeaderBits > 0 {
		spans = append(spans, views.BitSpan(up.Start, up.HeaderBits, views.SpanHeader, -1))
	}
	header = len(spans) - 1
	end := up.PathStart
	for i := range fs {
		op := fs[i].Op
		if op.Start < end {
			continue // keep spans sorted and apart, whatever the record says
		}
		spans = append(spans, views.BitSpan(op.Start, op.Bits, views.SpanPath, i))
		end = op.Start + op.Bits
	}
	if pe := up.PathStart + up.PathBits; up.PathBits > 0 && pe > end {
		spans = append(spans, views.BitSpan(end, pe-end, views.SpanHeader, -1))
		end = pe
	}
	valueSpan = make([]int, len(fs))
	for i := range fs {
		valueSpan[i] = -1
		f := &fs[i]
		if f.Start < end {
			continue
		}
		valueSpan[i] = len(spans)
		spans = append(spans, views.BitSpan(f.Start, f.Bits, views.SpanValue, i))
		end = f.Start + f.Bits
	}
	return spans, valueSpan, header
}

func appendIndex(name string, k int) string {
	s := strconv.Itoa(k)
	for len(s) < 4 {
		s = "0" + s
	}
	return name + "." + s
}

// entityRows lists every set field of an entity's state, named as the
// engine names field paths, marking the paths an update wrote; at maps
// each path to its row.
func entityRows(ser *schema.Serializer, state *session.Node, written map[session.Path]bool) (rows []views.EntityRow, at map[session.Path]int) {
	at = map[session.Path]int{}
	add := func(name string, p session.Path, v session.Value, d *session.Decoder) {
		at[p] = len(rows)
		rows = append(rows, views.EntityRow{Name: name, Value: v.TextAs(d), Changed: written[p]})
	}
	var walk func(ser *schema.Serializer, n *session.Node, prefix string, p session.Path, depth int)
	walk = func(ser *schema.Serializer, n *session.Node, prefix string, p session.Path, depth int) {
		if ser == nil || n == nil || depth >= session.MaxPathDepth {
			return
		}
		for i, f := range ser.Fields {
			q := p
			q.Last = depth
			q.Idx[depth] = int32(i)
			name := prefix + f.Name
			v := n.Get(i)
			switch f.Model {
			case schema.Simple:
				if v.Kind != session.KindNone {
					add(name, q, v, f.Decoder)
				}
			case schema.FixedArray, schema.VariableArray:
				if f.Model == schema.VariableArray && v.Kind != session.KindNone {
					add(name, q, v, f.Decoder)
				}
				kid := n.Kid(i)
				if kid == nil || depth+1 >= session.MaxPathDepth {
					continue
				}
				kid.EachVal(func(k int, ev session.Value) {
					if f.Model == schema.VariableArray && v.Kind != session.KindNone && uint64(k) >= v.U {
						return // past the length: a shrunk array keeps old elements unsent
					}
					e := q
					e.Last = depth + 1
					e.Idx[depth+1] = int32(k)
					add(appendIndex(name, k), e, ev, nil)
				})
			case schema.FixedTable:
				if v.Kind != session.KindNone {
					add(name, q, v, f.Decoder)
				}
				walk(f.Nested(v), n.Kid(i), name+".", q, depth+1)
			case schema.VariableTable:
				if v.Kind != session.KindNone {
					add(name, q, v, f.Decoder)
				}
				kid := n.Kid(i)
				if kid == nil || depth+2 >= session.MaxPathDepth {
					continue
				}
				kid.EachKid(func(k int, kk *session.Node) {
					if v.Kind != session.KindNone && uint64(k) >= v.U {
						return // past the length (a fixed-count struct array sends none)
					}
					e := q
					e.Last = depth + 1
					e.Idx[depth+1] = int32(k)
					walk(f.Serializer, kk, appendIndex(name, k)+".", e, depth+2)
				})
			}
		}
	}
	walk(ser, state, "", session.Path{}, 0)
	return rows, at
}

// modelDetail is the schema view's model-and-decoder column.
func modelDetail(f *schema.Field) string {
	// A type read by the default decoder already shows as "default".
	d := modelOnly(f)
	switch {
	case f.UnknownEncoder != "":
		d += " · encoder?"
	case f.Alias != "":
		d += " · --as"
	}
	return d
}

func modelOnly(f *schema.Field) string {
	switch f.Model {
	case schema.Simple:
		return "simple · " + f.Decoder.Short()
	case schema.FixedArray:
		return fmt.Sprintf("array[%d] · %s", f.Type.Count, f.Decoder.Short())
	case schema.FixedTable:
		if len(f.Polymorphic) > 0 {
			return fmt.Sprintf("pointer (%d kinds)", len(f.Polymorphic))
		}
		return "pointer · presence bit"
	case schema.VariableArray:
		return "vector · " + f.Elem.Short()
	case schema.VariableTable:
		return "vector of tables"
	}
	return f.Model.String()
}

// schemaRows lists a serializer's fields, expanding the nested serializers
// the selected path goes through so the selected field shows in place.
func schemaRows(ser *schema.Serializer, state *session.Node, sel *session.Path) []views.SchemaRow {
	var rows []views.SchemaRow
	var walk func(ser *schema.Serializer, n *session.Node, depth, at int)
	walk = func(ser *schema.Serializer, n *session.Node, depth, at int) {
		if ser == nil || depth > session.MaxPathDepth {
			return
		}
		want := -1
		if sel != nil && at <= sel.Last {
			want = int(sel.Idx[at])
		}
		for i, f := range ser.Fields {
			on := i == want
			r := views.SchemaRow{
				Depth: depth, Index: i, Name: f.Name, Type: f.VarType, Detail: modelDetail(f),
				Nested: f.Serializer != nil,
			}
			// The selected field is where the path ends, or the array or
			// table whose element the path names.
			last := sel != nil && on && (at == sel.Last ||
				(at+1 == sel.Last && (f.Model == schema.FixedArray || f.Model == schema.VariableArray)))
			expand := on && !last && f.Serializer != nil
			r.Selected = last
			r.OnPath = on && !last
			r.Expanded = expand
			rows = append(rows, r)
			if !expand {
				continue
			}
			switch f.Model {
			case schema.FixedTable:
				walk(f.Nested(n.Get(i)), n.Kid(i), depth+1, at+1)
			case schema.VariableTable:
				if at+1 <= sel.Last {
					walk(f.Serializer, n.Kid(i).Kid(int(sel.Idx[at+1])), depth+1, at+2)
				}
			}
		}
	}
	walk(ser, state, 0, 0)
	return rows
}

// countFields counts a serializer's fields, nested ones included.
func countFields(ser *schema.Serializer, depth int) int {
	if ser == nil || depth > 8 {
		return 0
	}
	n := 0
	for _, f := range ser.Fields {
		n++
		if f.Serializer != nil {
			n += countFields(f.Serializer, depth+1)
		}
	}
	return n
}

// normPath zeroes the unused indexes so paths compare by their used part.
func normPath(p session.Path) session.Path {
	for i := p.Last + 1; i < len(p.Idx); i++ {
		p.Idx[i] = 0
	}
	return p
}
