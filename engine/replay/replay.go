package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/dembug/dembug/engine/budget"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/knownfmt"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/msgnames"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
)

// Location names a place in the file, as every error and record does.
type Location struct {
	Command int            // command index
	Offset  int            // byte offset of the command in the file
	Kind    container.Kind // demo command
	Tick    int32          // demo tick (-1 in signon)
	Message int            // inner message index within the packet, -1 for none
	MsgType uint32         // inner message id
	MsgBit  uint           // bit offset of the inner message within the packet data
	MsgSize int            // inner message body size in bytes
}

// Stats counts what a run decoded.
type Stats struct {
	Commands       int
	LastTick       int32
	Messages       int64 // inner messages
	PacketEntities int64 // packet-entities messages decoded
	Misaligned     int64 // packet-entities messages that did not end where their data ends
	Elapsed        time.Duration
}

// Error locates a failure: byte offset, command, tick, message and bit.
type Error struct {
	Loc  Location
	Game game.Game
	Err  error
	segs []container.Segment // a capture's files, to name the one the offset is in
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s, command #%d %s, tick %d", e.Place(), e.Loc.Command, e.Loc.Kind, e.Loc.Tick)
	if e.Loc.Message >= 0 {
		s += fmt.Sprintf(", message #%d %s", e.Loc.Message, msgnames.Display(e.Game, e.Loc.MsgType))
	}
	return s + ": " + e.Err.Error()
}

// Place is the error's byte offset as the user knows it ("FILE byte N" in
// a capture).
func (e *Error) Place() string { return container.FormatPlace(e.segs, e.Loc.Offset) }

func (e *Error) Unwrap() error { return e.Err }

// errorAt is err at loc, with what names its place (the game, a capture's
// files).
func (r *Replay) errorAt(loc Location, err error) *Error {
	return &Error{Loc: loc, Game: r.Game, segs: r.cr.Segments(), Err: err}
}

// ErrNoStop says the data ended before the DEM_Stop command.
var ErrNoStop = errors.New("file ends before DEM_Stop: truncated")

// Hooks let callers watch or record a run. All are optional.
type Hooks struct {
	// Record is asked before each packet-entities message; a non-nil
	// result is filled with everything the decode reads.
	Record func(loc Location) *provenance.Message
	// Entities is called after each packet-entities message.
	Entities func(loc Location, m *messages.PacketEntities, res entity.Result, rec *provenance.Message)
	// Inner is called for each inner message before it is processed.
	Inner func(loc Location, m *messages.Inner)
	// Command is called after each command is processed; c is valid
	// until the next Step.
	Command func(c *container.Command)
}

// Replay is the decoding state of one demo file.
type Replay struct {
	Data     []byte
	Header   messages.FileHeader
	Info     messages.FileInfo
	Game     game.Game
	Server   messages.ServerInfo
	Schema   *schema.Schema
	Strings  stringtable.Set
	Entities *entity.Table
	Tick     int32
	NetTick  uint32
	Stats    Stats
	Hooks    Hooks
	// Aliases decode names decoder choice does not know as known ones
	// (set before the schema is read: --as).
	Aliases schema.Aliases
	// WatchFor, given the file's game, picks fields whose values the
	// decode's evidence counts besides the unknown and corrected ones
	// (schema.Schema.WatchAlso; set before the schema is read).
	WatchFor func(game.Game) func(*schema.Field) bool
	// SchemaData is the CSVCMsg_FlattenedSerializer the schema was built
	// from, kept to rebuild it under other aliases.
	SchemaData []byte
	// Reuse is a schema parsed from the same file before (with its data in
	// reuseData, see ReuseSchema): a second decode of a file skips the
	// parse when the flattened serializer and aliases are the same.
	Reuse     *schema.Schema
	reuseData []byte
	// FirstMisaligned is the first packet-entities failure, if any.
	FirstMisaligned *Error
	Done            bool // DEM_Stop seen or end of data reached
	// Source says where the game was learned and where a capture stops.
	Source Source
	// Format gathers what the file carries beyond the format dembug knows
	// (unknown fields, commands, message types).
	Format knownfmt.Collector

	sawStop     bool
	sinceBudget int // bytes of commands since the memory budget was checked
	cr          *container.Reader
	classes     []messages.Class
	inner       []messages.Inner
	scratch     []byte
	spareBody   []byte // a released decode's body buffer, for the reader once the schema takes its own
	schemaBody  []byte // the decompressed DEM_SendTables body the schema reads, nil for one read in place
	lent        bool   // a fork or a ReuseSchema shares the schema and its body: Release keeps them
	pe          messages.PacketEntities
	// cmd is the command being decoded, the one hooks and stop see; it is
	// valid until the next Step.
	cmd container.Command
}

// Open checks the header and prepares to decode data.
func Open(data []byte) (*Replay, error) {
	cr, err := container.NewReader(data)
	if err != nil {
		return nil, err
	}
	r := &Replay{Data: data, cr: cr, Entities: entity.NewTable(), Tick: -1, Source: Source{Capture: cr.IsCapture()}}
	r.reuseBuffers()
	return r, nil
}

// NextTick is the tick of the next command, read without decoding it;
// false at the end.
func (r *Replay) NextTick() (int32, bool) {
	if r.Done {
		return 0, false
	}
	return r.cr.PeekTick()
}

// NextKind is the kind of the next command, read without decoding it;
// false at the end.
func (r *Replay) NextKind() (container.Kind, bool) {
	if r.Done {
		return 0, false
	}
	return r.cr.PeekKind()
}

// Pos is the byte offset of the next command.
func (r *Replay) Pos() int { return r.cr.Pos() }

// Run decodes every command up to the end, or until stop returns true after
// a command (its argument is valid until the next Step). Packet-entities
// misalignments are counted and decoding goes on; any other error stops the
// run and is returned.
func (r *Replay) Run(stop func(c *container.Command) bool) error {
	start := time.Now()
	defer func() { r.Stats.Elapsed += time.Since(start) }()
	for {
		_, err := r.Step()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if stop != nil && stop(&r.cmd) {
			return nil
		}
	}
}

// Step decodes the next command. It returns io.EOF after the last one.
func (r *Replay) Step() (container.Command, error) {
	if r.Done {
		return container.Command{}, io.EOF
	}
	c, err := r.cr.Next()
	if err == io.EOF {
		r.Done = true
		// A cut at a command boundary frames cleanly; only the missing
		// DEM_Stop, or a file-info offset past the end, shows the loss.
		loc := Location{Command: r.Stats.Commands, Offset: len(r.Data), Kind: container.Stop, Tick: r.Tick, Message: -1}
		if r.cr.IsCapture() {
			// A capture ends where its last fragment ends: a live
			// broadcast has no end, and its files need no DEM_Stop.
			r.captureEnd(loc)
			return c, io.EOF
		}
		if !r.sawStop {
			return c, r.errorAt(loc, ErrNoStop)
		}
		if fi := int(r.cr.Header.FileInfoOffset); fi >= len(r.Data) {
			loc.Kind = container.FileInfo
			return c, r.errorAt(loc, fmt.Errorf("header says DEM_FileInfo is at byte %d, past the end of the %d-byte file: truncated", fi, len(r.Data)))
		}
		return c, io.EOF
	}
	loc := Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick, Message: -1}
	if err != nil {
		r.Done = true
		return c, r.errorAt(loc, unwrapContainer(err))
	}
	r.Tick = c.Tick
	r.Stats.Commands++
	if c.Tick >= 0 {
		r.Stats.LastTick = c.Tick
	}
	r.cmd = c
	r.formatCommand(&r.cmd, loc)
	if err := r.command(&r.cmd, loc); err != nil {
		r.Done = true
		var re *Error
		if errors.As(err, &re) {
			return c, err
		}
		return c, r.errorAt(loc, err)
	}
	if c.Kind == container.Stop {
		r.sawStop = true // DEM_FileInfo may still follow
	}
	// The memory budget, now and then: what a command costs is about its
	// body, and at least a little for the command itself.
	if r.sinceBudget += len(c.Body) + 512; r.sinceBudget >= 2<<20 {
		r.sinceBudget = 0
		if err := budget.Check(); err != nil {
			r.Done = true
			return c, r.errorAt(loc, err)
		}
	}
	if r.Hooks.Command != nil {
		r.Hooks.Command(&r.cmd)
	}
	return r.cmd, nil
}

func unwrapContainer(err error) error {
	var ce *container.Error
	if errors.As(err, &ce) {
		return ce.Err
	}
	return err
}

func (r *Replay) command(c *container.Command, loc Location) error {
	switch c.Kind {
	case container.FileHeader:
		h, err := messages.ParseFileHeader(c.Body)
		if err != nil {
			return err
		}
		r.gameFromHeader(h)
	case container.FileInfo:
		fi, err := messages.ParseFileInfo(c.Body)
		if err != nil {
			return err
		}
		r.Info = fi
	case container.SendTables:
		data, err := messages.SendTablesData(c.Body)
		if err != nil {
			r.formatSendTables(c, nil, nil, loc)
			return err
		}
		// The schema reads its serializers from data as classes are
		// decoded: a decompressed body is the reader's buffer to reuse, so
		// the replay takes the buffer and the reader starts a new one (no
		// copy of a signon's largest body); a body read in place is copied.
		if c.Compressed {
			r.cr.ResetScratch()
			r.schemaBody = c.Body
			if r.spareBody != nil { // a released decode's (release.go)
				r.cr.UseScratch(r.spareBody)
				r.spareBody = nil
			}
		} else {
			data = append(r.SchemaData[:0:0], data...)
		}
		s := r.Reuse
		if s == nil || !bytes.Equal(data, r.reuseData) || !s.Aliases.Equal(r.Aliases) || s.TickInterval != r.Server.TickInterval {
			if s, err = schema.ParseLazyWithTick(data, r.Game, r.Aliases, r.Server.TickInterval); err != nil {
				r.formatSendTables(c, data, nil, loc)
				return err
			}
		}
		r.formatSendTables(c, data, s, loc)
		if r.WatchFor != nil && s.WatchAlso == nil {
			s.WatchAlso = r.WatchFor(r.Game)
		}
		r.Schema, r.SchemaData = s, data
		if r.classes != nil {
			return r.Entities.SetClasses(r.classes, s)
		}
	case container.ClassInfo:
		cs, err := messages.ParseClassInfo(c.Body)
		if err != nil {
			return err
		}
		r.classes = cs
		if err := r.Entities.SetClasses(cs, r.Schema); err != nil {
			return err
		}
		r.refreshBaselines()
	case container.StringTables:
		plain, err := r.snapshot(c.Body)
		r.formatStringTables(c, plain, loc)
		return err
	case container.Packet, container.SignonPacket:
		if c.Broadcast {
			return r.packet(c.Body, loc) // a capture's packets are not wrapped
		}
		data, err := messages.PacketData(c.Body)
		if err != nil {
			return err
		}
		return r.packet(data, loc)
	case container.FullPacket:
		fp, err := messages.ParseFullPacket(c.Body)
		if err != nil {
			return err
		}
		// The full packet's string tables are for a reader that starts
		// here (seeking); read in order, the messages before it have built
		// the tables already, and they may hold a later state than their
		// tick (baselines from the future): see docs/format.md.
		if fp.Packet != nil {
			data, err := messages.PacketData(fp.Packet)
			if err != nil {
				return err
			}
			return r.packet(data, loc)
		}
	}
	return nil
}

// refreshBaselines reloads baselines from the instancebaseline table.
func (r *Replay) refreshBaselines() {
	t := r.Strings.ByName("instancebaseline")
	if t == nil {
		return
	}
	t.Each(func(e stringtable.Entry) {
		if id, err := strconv.Atoi(e.Key); err == nil {
			r.Entities.SetBaseline(int32(id), e.Value)
		}
	})
}

func (r *Replay) baselinesChanged(t *stringtable.Table, changed []int32) {
	if t.Name != "instancebaseline" {
		return
	}
	for _, i := range changed {
		e, ok := t.Get(i)
		if !ok {
			continue
		}
		if id, err := strconv.Atoi(e.Key); err == nil {
			r.Entities.SetBaseline(int32(id), e.Value)
		}
	}
}

// packet processes a packet's inner messages: everything else first, then
// the packet-entities messages, so that string tables and server info that
// arrive in the same packet are in place before entities need them.
func (r *Replay) packet(data []byte, loc Location) error {
	inner, scratch, splitErr := messages.SplitInner(data, r.inner[:0], r.scratch)
	r.inner, r.scratch = inner, scratch
	for pass := 0; pass < 2; pass++ {
		for i := range inner {
			m := &inner[i]
			isPE := m.Type == messages.SvcPacketEntities
			if isPE != (pass == 1) {
				continue
			}
			l := loc
			l.Message, l.MsgType, l.MsgBit, l.MsgSize = m.Index, m.Type, m.Bit, len(m.Body)
			if pass == 0 {
				r.Stats.Messages++
			}
			r.formatInner(m, l)
			if r.Hooks.Inner != nil {
				r.Hooks.Inner(l, m)
			}
			if err := r.inner1(m, l); err != nil {
				return r.errorAt(l, err)
			}
		}
	}
	if splitErr != nil {
		return splitErr
	}
	return nil
}

func (r *Replay) inner1(m *messages.Inner, loc Location) error {
	switch m.Type {
	case messages.NetTick:
		t, err := messages.ParseNetTick(m.Body)
		if err != nil {
			return err
		}
		r.NetTick = t.Tick
	case messages.SvcServerInfo:
		si, err := messages.ParseServerInfo(m.Body)
		if err != nil {
			return err
		}
		r.Server = si
		r.Entities.SetClassCount(si.MaxClasses)
		if err := r.gameFromServer(si); err != nil {
			return err
		}
	case messages.SvcCreateStringTable:
		cm, err := messages.ParseCreateStringTable(m.Body)
		if err != nil {
			return err
		}
		t := &stringtable.Table{Name: cm.Name, UserDataFixed: cm.UserDataFixedSize, UserDataSize: cm.UserDataSize,
			UserDataSizeBits: cm.UserDataSizeBits, Flags: cm.Flags, VarintBitCounts: cm.VarintBitCounts}
		if err := r.Strings.Create(t); err != nil {
			return err
		}
		data, err := stringtable.Decompress(cm.StringData, cm.DataCompressed, int(cm.UncompressedSize))
		if err != nil {
			return fmt.Errorf("string table %s: %w", cm.Name, err)
		}
		changed, err := t.Apply(data, int(cm.NumEntries))
		r.baselinesChanged(t, changed)
		if err != nil {
			return fmt.Errorf("string table %s: %w", cm.Name, err)
		}
	case messages.SvcUpdateStringTable:
		um, err := messages.ParseUpdateStringTable(m.Body)
		if err != nil {
			return err
		}
		t := r.Strings.ByID(int(um.TableID))
		if t == nil {
			return fmt.Errorf("update of string table %d, which does not exist (%d tables)", um.TableID, len(r.Strings.Tables))
		}
		changed, err := t.Apply(um.StringData, int(um.NumChangedEntries))
		r.baselinesChanged(t, changed)
		if err != nil {
			return fmt.Errorf("string table %s: %w", t.Name, err)
		}
	case messages.SvcClearAllStringTables:
		r.Strings.Reset()
	case messages.SvcPacketEntities:
		return r.packetEntities(m, loc)
	}
	return nil
}

func (r *Replay) packetEntities(m *messages.Inner, loc Location) error {
	pe, err := messages.ParsePacketEntities(m.Body)
	if err != nil {
		return err
	}
	if r.Schema == nil {
		return errors.New("entities before the schema (no DEM_SendTables yet)")
	}
	r.pe = pe
	if ev := r.Entities.Evidence; ev != nil {
		// Value evidence holds tick and player fields against these.
		ev.ServerTick, ev.MaxClients = r.NetTick, r.Server.MaxClients
		ev.At = evidence.At{Tick: loc.Tick, Command: int32(loc.Command), Message: int32(loc.Message)}
	}
	var rec *provenance.Message
	if r.Hooks.Record != nil {
		rec = r.Hooks.Record(loc)
	}
	res := r.Entities.Apply(&r.pe, rec)
	if !res.Skipped {
		r.Stats.PacketEntities++
	}
	// A spent memory budget is no misalignment to count and go past: the
	// decode stops there. (Asked only of an error: the target errors.As
	// fills is an allocation, once a message otherwise.)
	if res.Err != nil && isSpent(res.Err) {
		if r.Hooks.Entities != nil {
			r.Hooks.Entities(loc, &r.pe, res, rec)
		}
		return res.Err
	}
	if res.Misaligned {
		r.Stats.Misaligned++
		if r.FirstMisaligned == nil {
			err := res.Err
			if err == nil {
				err = errors.New("misaligned")
			}
			r.FirstMisaligned = r.errorAt(loc, err)
		}
	}
	if r.Hooks.Entities != nil {
		r.Hooks.Entities(loc, &r.pe, res, rec)
	}
	return nil
}

// isSpent reports whether err is a spent memory budget.
func isSpent(err error) bool {
	var spent *budget.Error
	return errors.As(err, &spent)
}

// Classes are the classes of DEM_ClassInfo, nil before it.
func (r *Replay) Classes() []messages.Class { return r.classes }

// ReuseSchema lets a decode of the file take the schema an earlier decode
// of it parsed (a schema is not changed once built), when the flattened
// serializer and the aliases are the same.
func (r *Replay) ReuseSchema(from *Replay) {
	from.lent = true
	r.Reuse, r.reuseData = from.Schema, from.SchemaData
}
