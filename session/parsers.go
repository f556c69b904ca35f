package session

import (
	"fmt"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// forecastOf is the index pass's forecast of the public parsers (package
// forecast), its values verdicts standing for what the game wrote of the
// unknown types they judge. The first read a parser misreads is named by
// its field and message, not decoded again (data is not handed on): the
// index pass ends with no second decode of the file.
func forecastOf(r *replay.Replay, data []byte, a schema.Aliases, values Verdicts) []forecast.Result {
	found := map[string]parsers.Kind{}
	for _, v := range values {
		if k, ok := forecast.KindOfType(v.Verdict.As); ok {
			found[v.Name] = k
		}
	}
	truth := func(f *schema.Field) (parsers.Kind, bool) {
		k, ok := found[f.UnknownType]
		return k, ok && f.UnknownType != ""
	}
	return forecast.Of(r, nil, a, truth, nil)
}

// ParserReading is how one public parser reads one recorded field.
type ParserReading struct {
	Parser, Release string
	// Reads is the parser's decoder and kind; Value what it gets from
	// the same bits ("" when its bits part from ours: every later read
	// shifts); Same says it is dembug's value.
	Reads, Value string
	Same         bool
}

// ParserReadings says, for a field read in a file of game g, how each
// public parser of g reads it and the value it gets from the same bits.
func ParserReadings(g game.Game, f *provenance.Field) []ParserReading {
	if f == nil || f.Schema == nil || f.Decoder == nil || f.Schema.Serializer != nil {
		return nil
	}
	base := schema.ParseVarType(f.Schema.VarType)
	elem := f.Schema.Model == schema.VariableArray && f.Decoder != f.Schema.Decoder
	name := base.Base
	if elem && base.Generic != nil {
		name = base.Generic.Base
	}
	var out []ParserReading
	for _, m := range parsers.All() {
		if !m.Forecasts(g) {
			continue
		}
		e, known := m.Reads(name, f.Schema.Name, elem)
		pr := ParserReading{Parser: m.Name, Release: m.Release, Reads: fmt.Sprintf("%s (%s)", e.Symbol, e.Kind)}
		if !known {
			pr.Reads = fmt.Sprintf("%s, its fallback for %s", e.Kind, name)
			if m.Stops != "" {
				pr.Reads = "none: " + m.Stops
			}
		}
		pr.Value, pr.Same = valueAs(e.Kind, f)
		out = append(out, pr)
	}
	return out
}

// valueAs is the value a read of kind k gets from f's bits, when it takes
// the same bits as dembug's decoder (a varint read another way).
func valueAs(k parsers.Kind, f *provenance.Field) (string, bool) {
	raw, ok := rawVarint(f)
	switch {
	case forecast.SameKind(k, forecast.KindOf(f.Decoder)):
		return f.Value.TextAs(f.Decoder), true
	case !ok || !k.Varint():
		return "", false
	}
	var v string
	switch k {
	case parsers.Unsigned:
		if raw >= 1<<35 {
			return "", false // a 32-bit read stops inside the varint
		}
		v = fmt.Sprint(uint32(raw))
	case parsers.Signed:
		v = fmt.Sprint(int32(uint32(raw)>>1) ^ -int32(raw&1))
	case parsers.Unsigned64:
		v = fmt.Sprint(raw)
	case parsers.Signed64:
		v = fmt.Sprint(int64(raw>>1) ^ -int64(raw&1))
	case parsers.MinusOne:
		v = fmt.Sprint(int64(uint32(raw)) - 1)
	}
	return v, v == f.Value.TextAs(f.Decoder)
}

// rawVarint is the varint f's decoder read, as it was on the wire.
func rawVarint(f *provenance.Field) (uint64, bool) {
	v := f.Value.U
	switch f.Decoder.Family {
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamHandle, decoder.FamUnsigned64:
		return v, true
	case decoder.FamSigned, decoder.FamSigned64:
		s := int64(v)
		return uint64(s<<1) ^ uint64(s>>63), true
	case decoder.FamUnsignedMinusOne:
		return uint64(int64(v) + 1), true
	}
	return 0, false
}

// ParsersAfter is the index's forecast of the public parsers once the
// inference is known: a file that misaligned is misread at the inference's
// breaking read by every parser reading its type otherwise (nil while
// the inference runs: the forecast waits for it).
func (ix *Index) ParsersAfter(inf *Inference, running bool) []forecast.Result {
	if ix.FirstMisaligned == nil {
		return ix.Parsers
	}
	if running {
		return nil
	}
	if inf == nil || inf.Break == nil || inf.Break.Kind != schema.KindType {
		return ix.Parsers
	}
	b := inf.Break
	var k parsers.Kind
	for _, f := range inf.Findings {
		if f.Unknown == b.Name {
			k, _ = forecast.KindOfType(f.As)
		}
	}
	if k == parsers.None {
		return ix.Parsers
	}
	return forecast.WithBreak(ix.Parsers, &forecast.Break{Type: b.Name, Kind: k, First: forecast.First{Tick: ix.FirstMisaligned.Tick,
		Entity: b.Entity, Class: b.Class, Field: b.FieldName, Type: b.Name, BitOffset: b.Bit, InBaseline: b.InBaseline}})
}
