package views

import "github.com/dembug/dembug/engine/bitio"

// Bit places and sizes as every pane spells them (bitio's spelling), for
// callers that draw without the engine's bit reader.

// Offset spells a bit offset as byte.bit ("12.3").
func Offset(bit uint) string { return bitio.Offset(bit) }

// Size spells a number of bits ("3 bytes 2 bits").
func Size(bits uint) string { return bitio.Size(bits) }

// BitSpan is the span of bits bits from start, of kind k, of field f (-1
// for none).
func BitSpan(start, bits uint, k SpanKind, f int) Span {
	return Span{Span: bitio.Span{Start: start, Bits: bits}, Kind: k, Field: f}
}
