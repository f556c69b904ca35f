package session

// Ref names a place in the file: a command, one of its messages (the
// position in the packet, not the inner index), an update of a
// packet-entities message and a field of the update. A level is -1 when
// nothing at that level is meant.
type Ref struct {
	Cmd, Msg, Upd, Field int
}

// None is the Ref of nothing.
var None = Ref{-1, -1, -1, -1}

// Message is the Ref of r's message alone.
func (r Ref) Message() Ref { return Ref{r.Cmd, r.Msg, -1, -1} }

// Update is the Ref of r's update alone.
func (r Ref) Update() Ref { return Ref{r.Cmd, r.Msg, r.Upd, -1} }

// UpdateRef is an update's Ref packed for the index, which holds one per
// entity update of the file.
type UpdateRef struct {
	Cmd, Msg, Upd int32
}

// Ref is the update's Ref, no field selected.
func (u UpdateRef) Ref() Ref { return Ref{int(u.Cmd), int(u.Msg), int(u.Upd), -1} }

// End is the Ref of the place after the last command: where decoding
// stopped, or the note on how the file ends.
var End = Ref{-2, -1, -1, -1}

// IsEnd reports whether r is End.
func (r Ref) IsEnd() bool { return r.Cmd == End.Cmd }
