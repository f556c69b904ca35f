package writer

import (
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/wiretree"
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
	for c := wiretree.NewCursor(b); c.Next(); {
		if c.Num != 3 {
			continue
		}
		for fc := wiretree.NewCursor(c.Data); fc.Next(); {
			switch fc.Num {
			case 1:
				isType[fc.V] = true
			case 10:
				isEncoder[fc.V] = true
			}
		}
	}
	var out []byte
	sym, changed := uint64(0), 0
	c := wiretree.NewCursor(b)
	for c.Next() {
		if c.Num != 2 {
			out = append(out, c.Raw()...)
			continue
		}
		s := string(c.Data)
		switch {
		case rn.Encoder && isEncoder[sym] && s == rn.From:
			s = rn.To
		case !rn.Encoder && isType[sym]:
			s = renameToken(s, rn.From, rn.To)
		}
		if s != string(c.Data) {
			changed++
		}
		out = protowire.AppendTag(out, 2, protowire.BytesType)
		out = protowire.AppendString(out, s)
		sym++
	}
	return out, changed, c.Err()
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
	for c := wiretree.NewCursor(b); c.Next(); {
		if c.Num == 2 {
			symbols = append(symbols, string(c.Data))
		}
	}
	var out []byte
	changed := 0
	c := wiretree.NewCursor(b)
	for c.Next() {
		isName := false
		if c.Num == 3 {
			for fc := wiretree.NewCursor(c.Data); fc.Next(); {
				isName = isName || fc.Num == 2 && fc.V < uint64(len(symbols)) && symbols[fc.V] == name
			}
		}
		if !isName {
			out = append(out, c.Raw()...)
			continue
		}
		var f []byte
		for fc := wiretree.NewCursor(c.Data); fc.Next(); {
			if fc.Num != 3 {
				f = append(f, fc.Raw()...)
			}
		}
		f = protowire.AppendVarint(protowire.AppendTag(f, 3, protowire.VarintType), uint64(bits))
		out = protowire.AppendBytes(protowire.AppendTag(out, 3, protowire.BytesType), f)
		changed++
	}
	return out, changed, c.Err()
}
