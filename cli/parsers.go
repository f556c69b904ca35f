package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/parsers"
)

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
