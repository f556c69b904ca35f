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
			fmt.Fprintf(w, "%s: parsers: %s%s%s\n", path, r.Sentence(), fixText(r.Fix), unfixedText(r))
		}
	}
}

// fixText is a forecast's fix lines, grouped by file and table:
// "; fix: fieldTypeDecoders in field_decoder.go gains "A": signedDecoder,".
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

// unfixedText names what no fix line mends, grouped by why:
// "; no table line fixes m_iClip1, m_iClip2 (its tables go by type, none
// by field name: a rule for the name goes in its code)".
func unfixedText(r forecast.Result) string {
	var b strings.Builder
	for _, g := range r.UnfixedGroups() {
		fmt.Fprintf(&b, "; no table line fixes %s (%s)", strings.Join(g.Names, ", "), g.Why)
	}
	return b.String()
}
