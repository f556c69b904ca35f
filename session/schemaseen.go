package session

import "github.com/dembug/dembug/engine/schema"

// SchemaSeen is the file's schema as far as ix, the index in's pass has
// built, has come: safe to ask on another goroutine than the pass's (the
// debugger's Update and View) while the pass runs, where Schema is not.
// Once the pass is done (ix.Done: its last chunk handed over) it is
// Schema; before, the schema the pass's first keyframe holds (read under
// the keyframes' lock), nil until the pass has taken one.
func (in *Indexer) SchemaSeen(ix *Index) *schema.Schema {
	if ix.Done {
		return in.Schema()
	}
	return ix.Keyframes.Schema()
}
