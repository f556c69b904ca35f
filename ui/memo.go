package ui

import (
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
)

// memo is the key a pane's cached rows were derived from: the place in the
// file (a session.Ref) and the data they depend on. A pane derives its
// rows again when its key differs; drop forgets them where their data
// changes in a way no key shows (a mute, a string table read, a suspect
// placed, a what-if's pairs).
type memo[K comparable] struct {
	key K
	ok  bool
}

// is reports whether the rows were derived from k.
func (c *memo[K]) is(k K) bool { return c.ok && c.key == k }

// set records that the rows are derived from k now.
func (c *memo[K]) set(k K) { c.key, c.ok = k, true }

// drop forgets the rows: the next draw derives them again.
func (c *memo[K]) drop() { *c = memo[K]{} }

// fieldsKey: the fields pane's rows, of an update of a decode (the mutes
// they mark drop them).
type fieldsKey struct {
	d  *session.Detail
	at session.Ref // the update
}

// spansKey: the bitstream's spans, of an update of a recording (the
// file's or a what-if's).
type spansKey struct {
	rec *provenance.Message
	upd int
}

// entKey: the entity pane's rows, of an update of a decode, after or
// before it.
type entKey struct {
	d      *session.Detail
	at     session.Ref // the update
	before bool
}

// schKey: the schema pane's rows, of an update of a decode (the file's or
// a what-if's) with a field selected (-1 for none).
type schKey struct {
	d          *session.Detail
	upd, field int
}

// inspKey: the inspector's sections, of a field (or update) of a decode,
// under the what-if, the inference and the toggles that change them.
type inspKey struct {
	d        *session.Detail
	at       session.Ref // the update and the field shown
	wi       *whatIf
	orig     bool // the what-if's original side is shown
	inf      *inference
	hdr, ops bool // the update's header and baseline, its op stream, first
}
