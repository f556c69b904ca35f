package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// addAsFlag registers the repeatable --as NAME=KNOWN flag.
func addAsFlag(cmd *cobra.Command, as *[]string) {
	cmd.Flags().StringArrayVar(as, "as", nil,
		"decode a type or encoder decoder choice does not know as a known one, NAME=KNOWN (repeatable; check suggests them)")
}

// parseAs reads --as values. The game is not known before the file header,
// so every game's known names are accepted.
func parseAs(as []string) (schema.Aliases, error) {
	return schema.ParseAliases(as, game.Unknown)
}

// openWith opens data to be decoded under aliases a.
func openWith(data []byte, a schema.Aliases) (*replay.Replay, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	r.Aliases = a
	return r, nil
}

// WriteUnknowns lists the names decoder choice does not know. Enums and
// ids read by the default decoder are the seed's rule; an unknown name is a
// suspect only when the evidence says so (check infers which).
func WriteUnknowns(w io.Writer, s *schema.Schema) {
	us := s.Unknowns()
	if len(us) == 0 {
		fmt.Fprintln(w, "decoder choice knows every type and encoder of this schema")
		return
	}
	var types, encs int
	for _, u := range us {
		if u.Kind == schema.KindType {
			types++
		} else {
			encs++
		}
	}
	fmt.Fprintf(w, "%d types and %d encoders unknown to decoder choice. Unknown types are read by the default decoder\n"+
		"(unsigned varint: right for enums and ids); unknown encoders are ignored. After a patch,\n"+
		"`dembug check` tests which of them breaks alignment and what it behaves as.\n", types, encs)
	for _, u := range us {
		fields := "fields"
		if u.Fields == 1 {
			fields = "field "
		}
		fmt.Fprintf(w, "  %-7s %-40s %4d %s  e.g. %s\n", u.Kind, u.Name, u.Fields, fields, strings.Join(u.Sample, ", "))
	}
	if !s.Aliases.Empty() {
		fmt.Fprintf(w, "aliases in force: %s\n", strings.Join(s.Aliases.Flags(), " "))
	}
}

// UnknownName is one entry of check --json's "unknown" list.
type UnknownName struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Fields int    `json:"fields"`
}

func unknownNames(s *schema.Schema) []UnknownName {
	var out []UnknownName
	for _, u := range s.Unknowns() {
		out = append(out, UnknownName{Kind: string(u.Kind), Name: u.Name, Fields: u.Fields})
	}
	return out
}
