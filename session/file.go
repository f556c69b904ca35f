package session

import (
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/schema"
)

// File is one open replay: its bytes and the aliases (--as) it is decoded
// under. The TUI asks it the questions that decode the file again (the
// inference, the first suspect); a change of aliases is WithAliases, a
// new File over the same bytes.
type File struct {
	data    []byte
	aliases schema.Aliases
}

// OpenFile opens data, decoded under aliases.
func OpenFile(data []byte, aliases schema.Aliases) *File {
	return &File{data: data, aliases: aliases}
}

// Bytes are the file's bytes (not to be changed).
func (f *File) Bytes() []byte { return f.data }

// Aliases are the aliases the file is decoded under.
func (f *File) Aliases() schema.Aliases { return f.aliases }

// WithAliases is the same bytes decoded under a.
func (f *File) WithAliases(a schema.Aliases) *File {
	return &File{data: f.data, aliases: a}
}

// Infer decodes the file and, where a message misaligns, infers what the
// names decoder choice does not know behave as (check's inference). A nil
// Inference with a nil error: nothing was inferred.
func (f *File) Infer() (*Inference, error) {
	ch, err := infer.Run(f.data, f.aliases, infer.Options{Infer: true})
	return InferenceOf(ch), err
}

// FirstSuspect is LocateFirstSuspect of the message at, resolved in the
// message's decode (the TUI selects it).
func (f *File) FirstSuspect(at Location, inf *Inference) *FirstSuspect {
	return LocateFirstSuspect(f.data, f.aliases, at, inf, true)
}
