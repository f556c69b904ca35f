package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// addAsFlag registers the repeatable --as NAME=KNOWN flag, and beside it
// --decoders, the reading decoder choice starts from: every command that
// takes --as takes both.
func addAsFlag(cmd *cobra.Command, as *[]string) {
	cmd.Flags().StringArrayVar(as, "as", nil,
		"decode a type or encoder decoder choice does not know as a known one, NAME=KNOWN (repeatable; check suggests them)")
	cmd.Flags().Var(&readingFlag{as: as}, "decoders",
		"the `reading` decoder choice starts from: game, the seed's tables with the corrections the game's values prove (docs/corrections.md), or seed, the seed's tables alone (what gem, Manta, demoinfocs and the rest read)")
}

// readingFlag is --decoders. It rides in the --as values (as one entry no
// --as can spell) so that every command reading them through parseAs
// reads the reading too.
type readingFlag struct {
	as    *[]string
	value string
}

// seedReading is the entry --decoders seed adds to the --as values.
const seedReading = "\x00decoders=seed"

func (f *readingFlag) String() string {
	if f.value == "" {
		return "game"
	}
	return f.value
}

func (f *readingFlag) Type() string { return "reading" }

func (f *readingFlag) Set(v string) error {
	switch v {
	case "seed":
		*f.as = append(*f.as, seedReading)
	case "game":
		*f.as = slices.DeleteFunc(*f.as, func(s string) bool { return s == seedReading })
	default:
		return fmt.Errorf("want game (the default) or seed, not %q", v)
	}
	f.value = v
	return nil
}

// parseAs reads --as values (and --decoders). The game is not known
// before the file header, so every game's known names are accepted.
func parseAs(as []string) (schema.Aliases, error) {
	seed := slices.Contains(as, seedReading)
	a, err := schema.ParseAliases(slices.DeleteFunc(slices.Clone(as), func(s string) bool { return s == seedReading }), game.Unknown)
	a.Seed = seed
	return a, err
}

// openWith opens a decode of data under aliases a.
func openWith(data []byte, a schema.Aliases) (*session.Pass, error) {
	return session.OpenFile(data, a).Pass(session.Visitor{})
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
