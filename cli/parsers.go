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
// inference found what aligns it, that decode stops being the game's, and
// the file is decoded again under the inferred aliases.
func forecastParsers(ch *infer.Checked, data []byte, o CheckOptions) []forecast.Result {
	r, a := ch.First, o.Aliases
	if r.FirstMisaligned != nil && len(ch.Findings) > 0 {
		again, err := openWith(data, ch.Aliases)
		if err != nil {
			return nil
		}
		again.Entities.Strings, again.WatchFor = o.Strings, forecast.Watch
		again.Entities.GatherEvidence()
		if again.Run(nil) != nil || again.FirstMisaligned != nil {
			return nil // what the game wrote is not known past it
		}
		r, a = again, ch.Aliases
	}
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
	return forecast.Of(r, data, a, truth)
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
