package cli

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
)

// printDiff prints a schema diff grouped by what changed: each renamed
// type first, one line however many fields it touched (with what it does
// to decoding and the --as that undoes it), then the changes no rename
// covers, one line each; a field added to or removed from many classes
// alike (a base class's) is one line too.
func printDiff(w io.Writer, changes []schema.Change, g game.Game) {
	groups, rest := schema.GroupChanges(changes, g)
	folded := len(changes) - len(rest)
	for _, gr := range groups {
		fmt.Fprintln(w, gr)
	}
	if len(groups) > 0 {
		fmt.Fprintf(w, "(%d field changes are the %d type renames above)\n", folded, len(groups))
	}
	repeats, rest := schema.GroupRepeated(rest)
	if len(repeats) > 0 && len(groups) > 0 {
		fmt.Fprintln(w)
	}
	for _, r := range repeats {
		fmt.Fprintln(w, r)
	}
	if (len(groups) > 0 || len(repeats) > 0) && len(rest) > 0 {
		fmt.Fprintln(w)
	}
	for _, c := range rest {
		fmt.Fprintln(w, c)
	}
}
