package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// decodeFlags are the flags every command that decodes takes: the
// repeatable --as NAME=KNOWN and --decoders, the reading decoder choice
// starts from.
type decodeFlags struct {
	as   []string
	seed bool // --decoders seed
}

// add registers the flags on cmd.
func (f *decodeFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.as, "as", nil,
		"decode a type or encoder decoder choice does not know as a known one, NAME=KNOWN (repeatable; check suggests them)")
	cmd.Flags().Var((*readingFlag)(&f.seed), "decoders",
		"the `reading` decoder choice starts from: game, the seed's tables with the corrections the game's values prove (docs/corrections.md), or seed, the seed's tables alone (what gem, Manta, demoinfocs and the rest read)")
}

// aliases reads the flags. The game is not known before the file header,
// so every game's known names are accepted.
func (f *decodeFlags) aliases() (schema.Aliases, error) {
	a, err := schema.ParseAliases(f.as, game.Unknown)
	a.Seed = f.seed
	return a, err
}

// readingFlag is --decoders: whether decoder choice reads by the seed's
// tables alone.
type readingFlag bool

func (f *readingFlag) String() string {
	if *f {
		return "seed"
	}
	return "game"
}

func (f *readingFlag) Type() string { return "reading" }

func (f *readingFlag) Set(v string) error {
	switch v {
	case "seed", "game":
		*f = v == "seed"
		return nil
	}
	return fmt.Errorf("want game (the default) or seed, not %q", v)
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
