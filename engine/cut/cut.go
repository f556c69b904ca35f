package cut

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
)

// Options choose the window.
type Options struct {
	From int32 // first tick of the window (demo ticks, as everywhere)
	To   int32 // last tick of the window; negative for the end of the file
	// Aliases decode names decoder choice does not know (--as).
	Aliases schema.Aliases
	// Drop, when set, leaves out what it names and has the cut describe
	// what it could leave out (dembug shrink; drop.go).
	Drop *Drop
	// Open, when set, opens the decode of data the cut reads, at the
	// start of the file and under Aliases, its hooks the cut's (the
	// debugger's pass runner, session); nil: Cut opens it.
	Open func() (*replay.Replay, error)
}

// Result is the cut and what was said of it.
type Result struct {
	Data []byte
	// First and Last are the ticks of the window's first and last
	// commands; StateTick is the tick whose state the full frame holds
	// (the last command before the window), -1 when the window starts
	// with the game.
	First, Last, StateTick int32
	Commands               int // the original's commands in the window
	// Capture says the original is a broadcast capture: its commands are
	// written in .dem framing (packets wrapped), not byte for byte.
	Capture  bool
	Entities int // entities the full frame creates
	Tables   int // string tables written as they stand
	// Carried says what state before the window the cut carries, and
	// Past what it leaves out as events of the past.
	Carried, Past string
	// Notes name what the cut could not carry.
	Notes []string
	// Stopped is the first misaligned message inside the window: the cut
	// ends with the command that holds it.
	Stopped *replay.Error
	// Ended is the error that ended the window early (a broken command),
	// nil when the window ended where asked or with the file.
	Ended error
	// Elements are what the cut could leave out, with Options.Drop.
	Elements *Elements
}

// Framing says how the window's commands were written: "as they were", or
// "in .dem framing" for a capture's.
func (r *Result) Framing() string {
	if r.Capture {
		return "in .dem framing"
	}
	return "as they were"
}

// StoppedText and EndedText say, in a sentence, why the cut ends before
// the window does ("" when it does not): the window misaligns, or a broken
// command ends it.
func (r *Result) StoppedText() string {
	if r.Stopped == nil {
		return ""
	}
	return fmt.Sprintf("the window misaligns: %v; the cut ends with that command (tick %d), where dembug check on the cut shows it", r.Stopped, r.Last)
}

func (r *Result) EndedText() string {
	if r.Ended == nil {
		return ""
	}
	return fmt.Sprintf("the window ends early: %v; the cut ends at tick %d", r.Ended, r.Last)
}

// stored is a command as the cut writes it: Raw is the body as the
// original stores it (compressed or not), Body decompressed. A broadcast
// capture's command has no Raw: its packet data is wrapped in the
// CDemoPacket a .dem file holds (Body), and a signon command's tick is a
// .dem signon's -1.
type stored struct {
	Kind       container.Kind
	Tick       int32
	Compressed bool
	Raw, Body  []byte
}

// newStored copies a command of the original (raw: its stored body) in
// .dem form.
func newStored(c *container.Command, raw []byte, signon bool) stored {
	if !c.Broadcast {
		return stored{Kind: c.Kind, Tick: c.Tick, Compressed: c.Compressed, Raw: slices.Clone(raw), Body: slices.Clone(c.Body)}
	}
	s := stored{Kind: c.Kind, Tick: c.Tick, Body: slices.Clone(c.Body)}
	if c.Kind == container.Packet || c.Kind == container.SignonPacket {
		s.Body = writer.PacketBody(c.Body)
	}
	if signon {
		s.Tick = -1
	}
	return s
}

// put writes a stored command at tick: its original bytes where it has
// them.
func (c *cutter) put(f *writer.File, s *stored, tick int32) {
	if s.Raw != nil {
		f.Raw(s.Kind, tick, s.Compressed, s.Raw)
		return
	}
	c.command(f, s.Kind, tick, s.Body)
}

// Error is a window that cannot be cut.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func fail(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// Cut cuts the window opt names out of the replay data.
func Cut(data []byte, opt Options) (*Result, error) {
	if opt.From < 0 {
		return nil, fail("--from %d: ticks start at 0", opt.From)
	}
	if opt.To >= 0 && opt.To < opt.From {
		return nil, fail("--to %d is before --from %d", opt.To, opt.From)
	}
	open := opt.Open
	if open == nil {
		open = func() (*replay.Replay, error) {
			r, err := replay.Open(data)
			if r != nil {
				r.Aliases = opt.Aliases
			}
			return r, err
		}
	}
	r, err := open()
	if err != nil {
		return nil, err
	}
	c := &cutter{r: r, data: data, opt: opt, res: &Result{StateTick: -1, Capture: container.IsCapture(data)}, before: newBefore()}
	if err := c.signonAndBefore(); err != nil {
		return nil, err
	}
	out, err := c.writeStart()
	if err != nil {
		return nil, err
	}
	if err := c.window(out); err != nil {
		return nil, err
	}
	if c.res.Commands == 0 && c.res.Ended != nil {
		// The window's first command is broken: that, not an empty window.
		return nil, fmt.Errorf("the window's first command cannot be read: %w", c.res.Ended)
	}
	if c.res.Commands == 0 {
		return nil, fail("no command has a tick from %d to %d (the next command after tick %d is at tick %d)", opt.From, opt.To, c.res.StateTick, c.nextTick)
	}
	c.finish(out)
	if c.captureSpawnGroups > 0 {
		c.res.Notes = append(c.res.Notes, fmt.Sprintf("%d DEM_SpawnGroups commands of the broadcast capture are left out: a capture does not frame them as protobuf, so no .dem reader could read them", c.captureSpawnGroups))
	}
	c.res.Data = out.Bytes()
	if err := c.checkEnd(); err != nil {
		return nil, err
	}
	return c.res, nil
}

type cutter struct {
	r    *replay.Replay
	data []byte
	opt  Options
	res  *Result

	signon   []stored // the commands before the game starts, SyncTick included
	before   *before
	netTick  []byte // the last net_Tick before the window
	maxEnts  int32  // max_entries of the last svc_PacketEntities
	peSeen   bool   // a packet-entities message was applied before the window
	inGame   bool
	nextTick int32
	// captureSpawnGroups counts a capture's DEM_SpawnGroups left out (not
	// protobuf there: no .dem reader could read them).
	captureSpawnGroups int
	packets            int32
	windowIndex        int // the window's commands met so far (drop.go)
}

// signonAndBefore decodes the signon (keeping its commands) and every
// command before the window (sorting what they carry).
func (c *cutter) signonAndBefore() error {
	r := c.r
	r.Hooks.Inner = func(_ replay.Location, m *messages.Inner) {
		if !c.inGame {
			return // signon packets are kept whole
		}
		if m.Type == messages.NetTick {
			c.netTick = append(c.netTick[:0], m.Body...)
		}
		c.before.message(r.Game, m)
	}
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
		c.maxEnts = m.MaxEntries
		if !res.Skipped {
			c.peSeen = true
		}
	}
	for {
		next, ok := r.NextTick()
		if !ok {
			if r.Done {
				return fail("tick %d is past the file's end (its last command is at tick %d)", c.opt.From, r.Tick)
			}
		}
		if ok && next >= c.opt.From {
			// The game starts with DEM_SyncTick, or with the first packet
			// where a file has none (a capture): that packet may be the
			// window's first command.
			kind, _ := r.NextKind()
			if c.inGame || kind == container.Packet || kind == container.FullPacket {
				c.nextTick = next
				break
			}
		}
		cmd, err := r.Step()
		if err == io.EOF {
			return fail("tick %d is past the file's end (its last command is at tick %d)", c.opt.From, r.Tick)
		}
		if err != nil {
			var re *replay.Error
			if errors.As(err, &re) && errors.Is(err, replay.ErrNoStop) {
				return fail("tick %d is past the end of the file, which is cut short after tick %d", c.opt.From, r.Tick)
			}
			return fmt.Errorf("before the window: %w", err)
		}
		if r.FirstMisaligned != nil {
			return fail("the decode misaligns before the window, so the state at tick %d is unknown: %v; cut from before tick %d, or fix the decode (--as)", c.opt.From, r.FirstMisaligned, r.FirstMisaligned.Loc.Tick)
		}
		raw := c.data[cmd.BodyOffset:cmd.End()]
		if !c.inGame {
			c.signon = append(c.signon, newStored(&cmd, raw, true))
			c.inGame = cmd.Kind.EndsSignon()
			if c.inGame && cmd.Kind != container.SyncTick {
				// A file without DEM_SyncTick: its first packet is game, not
				// signon.
				c.signon = c.signon[:len(c.signon)-1]
				c.sortBefore(&cmd, raw)
			}
			continue
		}
		c.sortBefore(&cmd, raw)
	}
	if r.Schema == nil {
		return fail("the file has no schema (DEM_SendTables) before tick %d", c.opt.From)
	}
	return nil
}

func (c *cutter) sortBefore(cmd *container.Command, raw []byte) {
	c.before.command(cmd, raw)
	c.res.StateTick = cmd.Tick
}

// window copies the window's commands as they are, decoding them to find
// where it misaligns and where it ends.
func (c *cutter) window(out *writer.File) error {
	r := c.r
	r.Hooks = replay.Hooks{}
	c.watchWindow() // what its messages touch, for Drop (drop.go)
	for {
		next, ok := r.NextTick()
		if !ok || (c.opt.To >= 0 && next > c.opt.To) {
			return nil
		}
		framed := r.Stats.Commands
		cmd, err := r.Step()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// A command that framed whole but failed to decode is the
			// moment to keep; one that did not frame stays out.
			if r.Stats.Commands > framed {
				c.keep(out, &cmd)
			}
			c.res.Ended = err
			return nil
		}
		if cmd.Kind == container.Stop {
			return nil
		}
		c.keep(out, &cmd)
		if r.FirstMisaligned != nil {
			c.res.Stopped = r.FirstMisaligned
			return nil
		}
	}
}

func (c *cutter) keep(out *writer.File, cmd *container.Command) {
	i := c.windowIndex
	if c.describe(cmd) {
		return // left out (Options.Drop)
	}
	switch {
	case c.keepMessages(out, cmd, i):
	case !cmd.Broadcast:
		out.Raw(cmd.Kind, cmd.Tick, cmd.Compressed, c.data[cmd.BodyOffset:cmd.End()])
	case cmd.Kind == container.SpawnGroups:
		c.captureSpawnGroups++ // not protobuf in a capture: no .dem reader could read it
	default:
		s := newStored(cmd, nil, false)
		c.put(out, &s, cmd.Tick)
	}
	if c.res.Commands == 0 {
		c.res.First = cmd.Tick
	}
	c.res.Last = cmd.Tick
	c.res.Commands++
	if cmd.Kind == container.Packet || cmd.Kind == container.FullPacket {
		c.packets++
	}
}
