package writer

import (
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
)

// Rename says which name a patch renames: a type name (a token of
// var_type strings, so "uint16" renames it in "uint16[4]" and
// "CNetworkUtlVectorBase< uint16 >" too) or an encoder.
type Rename struct {
	Encoder  bool
	From, To string
}

// RenameInSchema rewrites a demo file as a game patch would: the same bits,
// but the flattened serializer names a type or encoder decoder choice does
// not know. Only symbols used as var_type (or var_encoder) change, so class
// and field names stay. It returns the file and how many symbols changed.
func RenameInSchema(data []byte, rn Rename) ([]byte, int, error) {
	return rewriteSchema(data, func(ser []byte) ([]byte, int, error) { return renameSymbols(ser, rn) })
}

// rewriteSchema copies a demo file command by command, passing the
// CSVCMsg_FlattenedSerializer of DEM_SendTables through edit, and returns
// the file and what edit counted.
func rewriteSchema(data []byte, edit func(ser []byte) ([]byte, int, error)) ([]byte, int, error) {
	cr, err := container.NewReader(data)
	if err != nil {
		return nil, 0, err
	}
	out := NewFile()
	changed := 0
	for {
		c, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		body := c.Body
		if c.Kind == container.SendTables {
			ser, err := messages.SendTablesData(body)
			if err != nil {
				return nil, 0, err
			}
			if ser, changed, err = edit(ser); err != nil {
				return nil, 0, err
			}
			inner := protowire.AppendVarint(nil, uint64(len(ser)))
			inner = append(inner, ser...)
			body = protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), inner)
		}
		out.Command(c.Kind, c.Tick, body, c.Compressed)
	}
	return out.Bytes(), changed, nil
}

// renameSymbols edits the symbol table of a CSVCMsg_FlattenedSerializer.
func renameSymbols(b []byte, rn Rename) ([]byte, int, error) {
	// Which symbols are types, which encoders.
	isType, isEncoder := map[uint64]bool{}, map[uint64]bool{}
	err := eachField(b, func(num protowire.Number, v []byte, _ uint64) error {
		if num != 3 {
			return nil
		}
		return eachField(v, func(n protowire.Number, _ []byte, x uint64) error {
			switch n {
			case 1:
				isType[x] = true
			case 10:
				isEncoder[x] = true
			}
			return nil
		})
	})
	if err != nil {
		return nil, 0, err
	}
	var out []byte
	sym, changed := uint64(0), 0
	err = eachRaw(b, func(num protowire.Number, raw, v []byte) {
		if num != 2 {
			out = append(out, raw...)
			return
		}
		s := string(v)
		switch {
		case rn.Encoder && isEncoder[sym] && s == rn.From:
			s = rn.To
		case !rn.Encoder && isType[sym]:
			s = renameToken(s, rn.From, rn.To)
		}
		if s != string(v) {
			changed++
		}
		out = protowire.AppendTag(out, 2, protowire.BytesType)
		out = protowire.AppendString(out, s)
		sym++
	})
	return out, changed, err
}

// renameToken replaces every whole identifier equal to from in s.
func renameToken(s, from, to string) string {
	ident := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if ident(s[i]) {
			j := i
			for j < len(s) && ident(s[j]) {
				j++
			}
			if s[i:j] == from {
				b.WriteString(to)
			} else {
				b.WriteString(s[i:j])
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// eachField calls fn with each field's number and, for bytes fields, its
// contents, for varints its value.
func eachField(b []byte, fn func(num protowire.Number, v []byte, x uint64) error) error {
	var ferr error
	err := eachRaw(b, func(num protowire.Number, raw, v []byte) {
		if ferr != nil {
			return
		}
		var x uint64
		if v == nil {
			_, _, n := protowire.ConsumeTag(raw)
			x, _ = protowire.ConsumeVarint(raw[n:])
		}
		ferr = fn(num, v, x)
	})
	if err != nil {
		return err
	}
	return ferr
}

// eachRaw walks a protobuf message, calling fn with each field's bytes as
// written and, for length-delimited fields, their contents.
func eachRaw(b []byte, fn func(num protowire.Number, raw, v []byte)) error {
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return fmt.Errorf("byte %d: %w", off, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[off+n:])
		if m < 0 {
			return fmt.Errorf("byte %d: %w", off, protowire.ParseError(m))
		}
		raw := b[off : off+n+m]
		var v []byte
		if typ == protowire.BytesType {
			v, _ = protowire.ConsumeBytes(b[off+n:])
		}
		fn(num, raw, v)
		off += n + m
	}
	return nil
}

// SetBitCount rewrites a demo file as a patch that changes a field's bit
// count in the schema would leave it: every field named name gets bits as
// its bit count, while the data keeps the old width. It returns the file
// and how many fields changed.
func SetBitCount(data []byte, name string, bits int32) ([]byte, int, error) {
	return rewriteSchema(data, func(ser []byte) ([]byte, int, error) { return setBits(ser, name, bits) })
}

// setBits rewrites field 3 (bit_count) of every field message whose
// var_name symbol is name.
func setBits(b []byte, name string, bits int32) ([]byte, int, error) {
	var symbols []string
	if err := eachField(b, func(num protowire.Number, v []byte, _ uint64) error {
		if num == 2 {
			symbols = append(symbols, string(v))
		}
		return nil
	}); err != nil {
		return nil, 0, err
	}
	var out []byte
	changed := 0
	err := eachRaw(b, func(num protowire.Number, raw, v []byte) {
		if num != 3 {
			out = append(out, raw...)
			return
		}
		isName := false
		eachField(v, func(n protowire.Number, _ []byte, x uint64) error {
			if n == 2 && int(x) < len(symbols) && symbols[x] == name {
				isName = true
			}
			return nil
		})
		if !isName {
			out = append(out, raw...)
			return
		}
		var f []byte
		eachRaw(v, func(n protowire.Number, r, _ []byte) {
			if n != 3 {
				f = append(f, r...)
			}
		})
		f = protowire.AppendVarint(protowire.AppendTag(f, 3, protowire.VarintType), uint64(bits))
		out = protowire.AppendBytes(protowire.AppendTag(out, 3, protowire.BytesType), f)
		changed++
	})
	return out, changed, err
}
