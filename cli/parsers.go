package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/schema"
)

// forecastParsers says how each public parser of the file's game reads it
// against what the game wrote: the check's decode, with the types the
// inference found for unknown names. When a message misaligned and the
// inference found what aligns it, the read that broke (ch.Break) is where
// every parser reading its type otherwise misaligns too; the values before
// it count as they are.
func forecastParsers(ch *infer.Checked, data []byte, o CheckOptions) []forecast.Result {
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
	return forecast.Of(r, data, o.Aliases, truth, brk)
}

// printParsers writes one parsers: line per parser that does not read the
// file right (every parser with all).
func printParsers(w io.Writer, path string, rs []forecast.Result, all bool) {
	for _, r := range rs {
		if r.Reads != forecast.Right || all {
			fmt.Fprintf(w, "%s: parsers: %s%s\n", path, r.Sentence(), fixText(r.Fix))
		}
	}
}

// fixText is a forecast's fix lines, grouped by file and table:
// "; fix: in field_decoder.go, fieldTypeDecoders gains "A": signedDecoder,".
func fixText(fs []parsers.Fix) string {
	if len(fs) == 0 {
		return ""
	}
	var parts []string
	for i := 0; i < len(fs); {
		j := i
		var entries []string
		for ; j < len(fs) && fs[j].File == fs[i].File && fs[j].Symbol == fs[i].Symbol; j++ {
			entries = append(entries, fs[j].Entry)
		}
		parts = append(parts, fmt.Sprintf("%s in %s gains %s", fs[i].Symbol, fs[i].File, strings.Join(entries, " ")))
		i = j
	}
	return "; fix: " + strings.Join(parts, "; ")
}
