package cli

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
)

// valueDecoder is the decoder of a value Walk visits under field f named
// name: a variable array's element is read by its element decoder.
func valueDecoder(f *schema.Field, name string) *decoder.Decoder {
	if f == nil {
		return nil
	}
	if f.Model == schema.VariableArray && len(name) > len(f.Name) && name[len(name)-len(f.Name):] != f.Name {
		return f.Elem
	}
	return f.Decoder
}

// appendAt writes a bit offset's byte.bit form ("0x1a.3") as a JSON string.
func appendAt(b []byte, bit uint) []byte {
	b = append(b, '"')
	b = append(b, bitio.Offset(bit)...)
	return append(b, '"')
}
