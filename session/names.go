package session

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/stringtable"
)

// The engine's names the debugger speaks in: the values, decoders, paths
// and string-table reads a decode hands over, and the explanations the
// engine gives of its own reads (each beside the format it explains:
// bitio's ubitvar, fieldpath's ops, decoder's walk-through, stringtable's
// reads). Package ui imports none of engine/decoder, engine/fieldpath,
// engine/bitio and engine/stringtable; it formats what these return.

type (
	Path        = fieldpath.Path
	OpRecord    = fieldpath.OpRecord
	FieldPathOp = fieldpath.Op
	OpBits      = fieldpath.OpBits
	Value       = decoder.Value
	Decoder     = decoder.Decoder
	Family      = decoder.Family
	DecoderStep = decoder.Step
	TablePart   = stringtable.Part
	StringEntry = stringtable.Entry
	EntryWalk   = stringtable.EntryWalk
	UBitVarRead = bitio.UBitVarRead
)

const (
	MaxPathDepth = fieldpath.MaxDepth
	NumOps       = fieldpath.NumOps
	FinishOp     = fieldpath.Finish
	UBitVarFPDoc = fieldpath.UBitVarFPDoc
	UBitVarDoc   = fieldpath.UBitVarDoc
	VarInt32Doc  = fieldpath.VarInt32Doc
	TreeDoc      = fieldpath.TreeDoc

	KindNone          = decoder.KindNone
	StepBits          = decoder.StepBits
	StepNote          = decoder.StepNote
	FamQuantized      = decoder.FamQuantized
	FamVector         = decoder.FamVector
	FamQAnglePitchYaw = decoder.FamQAnglePitchYaw
	FamQAngleBits     = decoder.FamQAngleBits
	FamSigned         = decoder.FamSigned
	FamSigned64       = decoder.FamSigned64
	FamUnsigned64     = decoder.FamUnsigned64

	PartSize = stringtable.PartSize
)

var (
	// DecoderFamilies is every decoder family, in order.
	DecoderFamilies = decoder.Families
	// FlagNames spells a float's encode flags.
	FlagNames = decoder.FlagNames
	// SetupSteps is a quantized float's set-up, step by step.
	SetupSteps = decoder.SetupSteps
	// ExplainRead walks a decoder's read at a bit of the data through.
	ExplainRead = decoder.ExplainAt
	// DescribeOp and OpCode are a field-path op's description and code.
	DescribeOp = fieldpath.Describe
	OpCode     = fieldpath.CodeOf
	// ReadOpBits takes an op's bits apart; FinishAt is the finish op
	// ending paths at a bit; SpellOperands spells an op's operands.
	ReadOpBits    = fieldpath.ReadOpBits
	FinishAt      = fieldpath.FinishAt
	SpellOperands = fieldpath.SpellOperands
	// ReadUBitVarAt takes a ubitvar apart; SpellAt spells bits as read.
	ReadUBitVarAt = bitio.ReadUBitVarAt
	SpellAt       = bitio.SpellAt
	// SpellBits spells a value's n low bits in read order.
	SpellBits = bitio.Spell
)
