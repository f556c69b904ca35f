package session

import (
	"fmt"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// ParserForecast is one public parser's forecast for a file.
type ParserForecast = forecast.Result

// forecastOf says how each public parser of the file's game reads it
// against what the game wrote: ch is check's decode of data under a,
// made watching what the parsers read otherwise (forecast.Watch), with
// the types the inference found for unknown names. When a message
// misaligned and the inference found what aligns it, the read that broke
// (ch.Break) is where every parser reading its type otherwise misaligns
// too; the values before it count as they are.
func forecastOf(ch *infer.Checked, data []byte, a schema.Aliases) []ParserForecast {
	if ch == nil || ch.First == nil {
		return nil
	}
	r := ch.First
	found := map[string]parsers.Kind{}
	for _, f := range ch.Findings {
		if k, ok := forecast.KindOfType(f.As); ok && f.Kind == schema.KindType {
			found[f.Unknown] = k
		}
	}
	truth := func(f *schema.Field) (parsers.Kind, bool) {
		k, ok := found[f.UnknownType]
		return k, ok && f.UnknownType != ""
	}
	var brk *forecast.Break
	if b := ch.Break; r.FirstMisaligned != nil && b != nil && b.Kind == schema.KindType {
		if k, ok := found[b.Name]; ok {
			brk = &forecast.Break{Type: b.Name, Kind: k, First: forecast.First{Tick: r.FirstMisaligned.Loc.Tick,
				Entity: b.Entity, Class: b.Class, Field: b.FieldName, Type: b.Name, BitOffset: b.Bit, InBaseline: b.InBaseline}}
		}
	}
	return forecast.Of(r, data, a, truth, brk)
}

// Forecast is forecastOf for the open file: the decode check makes,
// watching what the parsers read otherwise. The debugger asks for it when
// the user does (p), not in its index pass: watching the fields every
// parser reads otherwise costs the index pass memory a long file of tiny
// commands makes grow past its bound.
func (f *File) Forecast() []ParserForecast {
	c, _ := f.Check(CheckOptions{Infer: true})
	if c == nil {
		return nil
	}
	return c.Parsers
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
	base := f.Schema.Written()
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
	raw, ok := f.Decoder.Varint(f.Value)
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
