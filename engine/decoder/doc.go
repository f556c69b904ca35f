// Package decoder holds the field decoders: each reads one value from the
// bit stream as its format needs. A Decoder is chosen once per field when the
// schema is built (see package schema) and then called on the hot path, so
// Decode is a single switch with no allocation except for strings.
//
// Files:
//
//	decoder.go    Family, Decoder, Decode/DecodeTo: the hot-path read switch
//	quantized.go  Quantized: quantized floats, their flags and set-up
//	value.go      Value, Kind: a decoded value, its text and JSON forms
//	strpool.go    Pool: interned string values (Values hold ids), with a cap
//	names.go      names of families and decoders: String, ID, Describe, Short
//	encode.go     Encode, EncodeError: write a Value in a decoder's format
//	explain.go    Explain, Step: a read walked through bit by bit
package decoder
