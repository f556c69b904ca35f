package session

import (
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// The pass runner: the one place this package opens a decode of the file
// (engine/replay) or resumes one from a keyframe, wires the replay's hooks
// and turns the engine's place of a message (its inner index in the
// packet) into a Ref. The index pass, the grading pass, search and filter,
// the live decoder, a string table's walk, a promoted reading's decode,
// the command line's decodes (trace, entities, strings, stats, events,
// the anomaly tally) and compare's are visitors of a pass; the captures
// of what-ifs, of the first suspect and of the header check, the
// inference from a keyframe and the debugger's cut take a replay it
// opened (resumeBefore), and wire it themselves, in the engine. The
// engine's own whole-file runs (infer.Run: check's decode, the inference
// without an index) open theirs.

// Visitor is what a pass hands a decode's events to; every part is
// optional.
type Visitor struct {
	// Inner sees each inner message of a packet before it is processed,
	// named as the engine names it: the packet-entities ones after the
	// others (engine/replay).
	Inner func(loc Location, m *messages.Inner)
	// Record is asked before each packet-entities message, at its Ref: a
	// non-nil result is filled with everything the decode reads.
	Record func(at Ref, loc Location) *provenance.Message
	// Entities sees each packet-entities message once decoded, at its Ref.
	Entities func(at Ref, loc Location, m *messages.PacketEntities, res Result, rec *provenance.Message)
	// Command sees each command once processed; c is valid until the
	// next step.
	Command func(c *container.Command)
}

// Pass is one decode of the file, handing what it decodes to a visitor.
// Its replay is the visitors' to read (the entity table, string tables,
// schema: passread.go's questions), never to re-wire: the visitor may change
// between steps (v).
type Pass struct {
	r    *replay.Replay
	v    Visitor
	from int // the first command the pass decodes: 0, or its keyframe's
}

// start names where a pass starts: at the last of the keyframes ks before
// command before (the start of the file without one, or with no ks).
type start struct {
	data    []byte
	aliases schema.Aliases
	ks      *replay.Keyframes
	before  int
}

// Pass opens a decode of the file from its start, handing v what it
// decodes.
func (f *File) Pass(v Visitor) (*Pass, error) {
	return openPass(start{data: f.data, aliases: f.aliases}, v)
}

// openPass opens a pass at st with visitor v.
func openPass(st start, v Visitor) (*Pass, error) {
	p := &Pass{v: v}
	if st.ks != nil {
		if k := st.ks.Before(st.before); k != nil {
			p.r, p.from = k.Resume(), k.Command
		}
	}
	if p.r == nil {
		r, err := replay.Open(st.data)
		if err != nil {
			return nil, err
		}
		r.Aliases = st.aliases
		p.r = r
	}
	p.wire()
	return p, nil
}

// wire sets the replay's hooks to the pass's, once: they hand over to
// whatever visitor the pass has at the time, skipping what it leaves out.
func (p *Pass) wire() {
	h := &p.r.Hooks
	h.Inner = func(loc Location, m *messages.Inner) {
		if p.v.Inner != nil {
			p.v.Inner(loc, m)
		}
	}
	h.Record = func(loc Location) *provenance.Message {
		if p.v.Record == nil {
			return nil
		}
		return p.v.Record(entitiesRef(loc), loc)
	}
	h.Entities = func(loc Location, m *messages.PacketEntities, res Result, rec *provenance.Message) {
		if p.v.Entities != nil {
			p.v.Entities(entitiesRef(loc), loc, m, res, rec)
		}
	}
	h.Command = func(c *container.Command) {
		if p.v.Command != nil {
			p.v.Command(c)
		}
	}
}

// entitiesRef is the Ref of the packet-entities message at loc, and
// entitiesLoc the engine's place of the packet-entities message at a Ref:
// the one place a message's inner index and its Ref meet. A Ref's message
// is its position among the command's messages in inner order as the
// index lists them (every message the replay handed over); the replay
// hands a packet's packet-entities messages over after all its others,
// and only when every one of those decoded, then in order, stopping at
// the first that fails. So every message with a lower inner index is
// listed before a packet-entities message, and its position is its inner
// index (TestPassRefsAreTheIndexs holds it on every shared replay, from
// the start and from keyframes). Not so for the others: a packet that
// breaks before its packet-entities messages leaves them out of the list.
func entitiesRef(loc Location) Ref { return Ref{loc.Command, loc.Message, -1, -1} }

func entitiesLoc(at Ref) Location { return Location{Command: at.Cmd, Message: at.Msg} }

// EntitiesRef is the Ref of the packet-entities message the engine names
// by its command and inner index (a compared read's, say): entitiesRef.
func EntitiesRef(cmd, inner int) Ref { return entitiesRef(Location{Command: cmd, Message: inner}) }

// Step decodes the next command.
func (p *Pass) Step() (container.Command, error) { return p.r.Step() }

// Run decodes on to the end of the file, or until stop (nil: never) says
// so after a command; io.EOF is no error here.
func (p *Pass) Run(stop func(c *container.Command) bool) error { return p.r.Run(stop) }

// resumeBefore is a replay at st, its hooks left to the caller: for the
// engine's own decodes of one message (diagnose's captures, infer's
// forks).
func resumeBefore(st start) (*replay.Replay, error) {
	p, err := openPass(st, Visitor{})
	if err != nil {
		return nil, err
	}
	p.r.Hooks = replay.Hooks{}
	return p.r, nil
}

// openAtStart is a replay at the start of the file, its hooks left to the
// caller (the cut's decode, engine/cut).
func (f *File) openAtStart() (*replay.Replay, error) {
	return resumeBefore(start{data: f.data, aliases: f.aliases})
}

// resumed is a replay resumed from the last keyframe before st.before, its
// hooks left to the caller; nil when st has none there.
func resumed(st start) *replay.Replay {
	if st.ks == nil || st.ks.Before(st.before) == nil {
		return nil
	}
	r, err := resumeBefore(st)
	if err != nil {
		return nil
	}
	return r
}
