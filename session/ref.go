package session

import "github.com/dembug/dembug/engine/entity"

// Ref names a place in the file, the one coordinate from the index to the
// screen: a command, one of its messages (the position in the packet, not
// the inner index the engine's replay.Location carries), an update of a
// packet-entities message and a field of the update. A level is -1 when
// nothing at that level is meant. The index's flat update order (Index.Ref,
// Index.FlatOf) is an ordinal of the update-level Refs, for dense tables.
type Ref struct {
	Cmd, Msg, Upd, Field int
}

// None is the Ref of nothing.
var None = Ref{-1, -1, -1, -1}

// Message is the Ref of r's message alone.
func (r Ref) Message() Ref { return Ref{r.Cmd, r.Msg, -1, -1} }

// Update is the Ref of r's update alone.
func (r Ref) Update() Ref { return Ref{r.Cmd, r.Msg, r.Upd, -1} }

// Compare orders Refs in file order: -1 when r comes before o, 1 after, 0
// when they are the same place. A level of -1 (the whole update, say)
// comes before the places inside it.
func (r Ref) Compare(o Ref) int {
	for _, d := range [4]int{r.Cmd - o.Cmd, r.Msg - o.Msg, r.Upd - o.Upd, r.Field - o.Field} {
		if d < 0 {
			return -1
		}
		if d > 0 {
			return 1
		}
	}
	return 0
}

// End is the Ref of the place after the last command: where decoding
// stopped, or the note on how the file ends.
var End = Ref{-2, -1, -1, -1}

// IsEnd reports whether r is End.
func (r Ref) IsEnd() bool { return r.Cmd == End.Cmd }

// MaxEntities bounds an entity index: indexes run from 0 below it.
const MaxEntities = entity.MaxEntities
