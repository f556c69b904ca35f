package session

import (
	"fmt"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// What-ifs: a message decoded again from a snapshot of the entity table
// taken just before it (package diagnose's Case), with another decoder for
// some of its reads or with its bits edited, beside the original decode.

// Change is what a what-if changes: a decoder for one read, every read of
// a schema field or every field of a type, or bits inserted or dropped.
type Change = entity.WhatIf

// Result is how a decode of one message ended.
type Result = entity.Result

// Location is where a message is in the file, as the engine names it.
type Location = replay.Location

// Location returns the engine's location of message at.Msg of command
// at.Cmd.
func (ix *Index) Location(at Ref) (Location, bool) {
	c, m := ix.Cmd(at.Cmd), ix.Msg(at.Cmd, at.Msg)
	if c == nil || m == nil {
		return Location{}, false
	}
	return Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick, Message: m.Index, MsgType: m.Type}, true
}

// Request is a what-if to run.
type Request struct {
	Change Change
	Label  string // what is changed, in words
	Search bool   // let diagnose search for the fix instead
}

// WhatIf is a finished what-if decode of one message.
type WhatIf struct {
	Cmd, Msg int // the message (positions in the index)
	Change   Change
	Label    string // what was changed, in words
	Fix      string // for a search: the engine's explanation
	Note     string // how the request had to be adapted, if it was

	Orig     *provenance.Message
	OrigRep  diagnose.Report
	OrigData []byte
	Rec      *provenance.Message
	Rep      diagnose.Report
	Res      Result
	Data     []byte  // the entity data the what-if decoded (edited for a bit edit)
	Matched  int     // fields the decoder override applied to
	Detail   *Detail // the what-if decode as the entity and schema panes show it
}

// Cases keeps the captured message of the last what-if, so trying another
// decoder on it is a single re-decode. Run is safe for concurrent use: the
// mutex serialises runs (a Try snapshots the shared table).
type Cases struct {
	aliases schema.Aliases
	capture capturer // nil: from the start of the file
	mu      sync.Mutex
	key     Ref
	c       *diagnose.Case
}

// NewCases returns an empty case cache decoding with aliases.
func NewCases(a schema.Aliases) *Cases { return &Cases{aliases: a} }

// Run runs a what-if on the packet-entities message at (at.Cmd, at.Msg)
// of data.
func (cc *Cases) Run(data []byte, at Ref, req Request) (*WhatIf, error) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	at = Ref{at.Cmd, at.Msg, -1, -1}
	if cc.c == nil || cc.key != at {
		capture := cc.capture
		if capture == nil {
			capture = func(loc Location) (*diagnose.Case, error) {
				r, err := resumeBefore(start{data: data, aliases: cc.aliases})
				if err != nil {
					return nil, err
				}
				return diagnose.CaptureIn(r, loc)
			}
		}
		c, err := capture(entitiesLoc(at))
		if err != nil {
			return nil, err
		}
		cc.c, cc.key = c, at
	}
	c := cc.c
	wi := &WhatIf{Cmd: at.Cmd, Msg: at.Msg, Change: req.Change, Label: req.Label, Orig: c.Record, OrigRep: c.Report, OrigData: c.Msg.EntityData}
	if req.Search {
		fix, err := c.Locate()
		if err != nil {
			return nil, err
		}
		wi.Change, wi.Fix, wi.Label = fix.WhatIf, fix.Explain, "search: "+fix.Explain
	}
	var after *entity.Table
	wi.Res, wi.Rec, wi.Rep, after = c.TryTable(wi.Change)
	if w := wi.Change; w.Decoder != nil && w.Occurrence >= 0 && w.Occurrence < len(c.Record.Fields) && !landed(wi.Rec, w) {
		// The table numbers every field it decodes in the message, the
		// instance baselines of classes first created in it included, so
		// in such a message an occurrence can miss the record's field.
		// Every read of the schema field is the closest hypothesis.
		if sf := c.Record.Fields[w.Occurrence].Schema; sf != nil {
			wi.Change = Change{Occurrence: -1, Field: sf, Decoder: w.Decoder}
			wi.Res, wi.Rec, wi.Rep, after = c.TryTable(wi.Change)
			wi.Note = fmt.Sprintf("this message decodes instance baselines, which the what-if's field count includes, so one read cannot be singled out: applied to every %s read", sf.Name)
			wi.Label += " (every read)"
		}
	}
	wi.Data = wi.Change.Edit(c.Msg.EntityData)
	wi.Detail = &Detail{Cmd: at.Cmd, Msg: at.Msg, Rec: wi.Rec, Data: wi.Data, Report: wi.Rep, Snaps: snapsAfter(wi.Rec, after)}
	if wi.Change.Decoder != nil {
		for i := range wi.Rec.Fields {
			if wi.Rec.Fields[i].Decoder == wi.Change.Decoder {
				wi.Matched++
			}
		}
	}
	return wi, nil
}

// landed reports whether a one-read decoder override reached the field
// it names: the record's field at that position was read with it.
func landed(rec *provenance.Message, w Change) bool {
	return w.Occurrence < len(rec.Fields) && rec.Fields[w.Occurrence].Decoder == w.Decoder
}

// Aligns reports whether the what-if decode consumed the data exactly.
func (wi *WhatIf) Aligns() bool { return !wi.Res.Misaligned && wi.Res.Err == nil && wi.Rec.Err == nil }

// Pair matches a field of the original decode (O) with the same field of
// the what-if decode (W), by path, in order; -1 when one side lacks it.
type Pair struct{ O, W int }

func pairFields(o, w []provenance.Field) []Pair {
	in := func(f *provenance.Field, fs []provenance.Field) bool {
		for i := range fs {
			if fs[i].Path == f.Path {
				return true
			}
		}
		return false
	}
	var out []Pair
	i, j := 0, 0
	for i < len(o) || j < len(w) {
		switch {
		case i < len(o) && j < len(w) && o[i].Path == w[j].Path:
			out = append(out, Pair{i, j})
			i, j = i+1, j+1
		case j < len(w) && (i >= len(o) || !in(&w[j], o[i:])):
			out = append(out, Pair{-1, j})
			j++
		default:
			out = append(out, Pair{i, -1})
			i++
		}
	}
	return out
}

// UpdateOf is the what-if's decode of original update u: the update at
// the same position when it is the same entity, or -1.
func (wi *WhatIf) UpdateOf(u int) int {
	if u < 0 || u >= len(wi.Rec.Updates) || u >= len(wi.Orig.Updates) || wi.Rec.Updates[u].Index != wi.Orig.Updates[u].Index {
		return -1
	}
	return u
}

// Pairs matches the fields of original update u with the what-if's.
func (wi *WhatIf) Pairs(u int) []Pair {
	var o, w []provenance.Field
	if u >= 0 && u < len(wi.Orig.Updates) {
		o = wi.Orig.UpdateFields(u)
	}
	if wu := wi.UpdateOf(u); wu >= 0 {
		w = wi.Rec.UpdateFields(wu)
	}
	return pairFields(o, w)
}

// Fields returns the original and what-if fields of a pair of update u;
// nil for the side that lacks it.
func (wi *WhatIf) Fields(u int, p Pair) (orig, whatIf *provenance.Field) {
	if p.O >= 0 {
		orig = &wi.Orig.Fields[wi.Orig.Updates[u].FirstField+p.O]
	}
	if p.W >= 0 {
		whatIf = &wi.Rec.Fields[wi.Rec.Updates[wi.UpdateOf(u)].FirstField+p.W]
	}
	return orig, whatIf
}

// Changed counts the pairs whose value differs (or that one side lacks).
func (wi *WhatIf) Changed(u int, pairs []Pair) int {
	n := 0
	for _, p := range pairs {
		of, wf := wi.Fields(u, p)
		if of == nil || wf == nil || !of.Value.Equal(wf.Value) {
			n++
		}
	}
	return n
}

// BaseType is the type name "every field of this type" matches, as
// Change.Type does: the element type of a variable array.
func BaseType(f *provenance.Field) string {
	s := f.Schema
	if s == nil {
		return ""
	}
	if s.Model == schema.VariableArray && s.Type.Generic != nil && f.Decoder == s.Elem {
		return s.Type.Generic.Base
	}
	return s.Type.Base
}

// previewString quotes a string a decoder read: as itself where it is
// text (as entities prints it), and all in escapes where it is not, so that
// a misread's bytes are not shown half as glyphs and half as escapes.
func previewString(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strconv.QuoteToASCII(s)
		}
	}
	return strconv.Quote(s)
}

// Preview decodes data at a bit with another decoder: how many bits it
// reads and the value, in a few words.
func Preview(data []byte, at uint, d *decoder.Decoder) string {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(at)
	v := d.Decode(&r)
	if r.Overflowed() {
		return "reads past the end of the data"
	}
	s := v.String()
	if v.Kind == decoder.KindString {
		s = previewString(v.Str())
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	n := r.Pos() - at
	unit := "bits"
	if n == 1 {
		unit = "bit"
	}
	return fmt.Sprintf("%d %s → %s", n, unit, s)
}
