package session

import (
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/knownfmt"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
)

// What a pass has decoded so far, as the command line asks it: the
// questions of a pass's replay that check, trace, entities, strings, stats
// and events need, so that package cli reads a decode without the engine's
// replay, entity table, inference or diagnosis.

// DecodeStats are a decode's counts: commands, last tick, messages,
// packet-entities messages, misaligned ones.
type DecodeStats = replay.Stats

// EntityStats are the entity table's counts: updates, fields, decoder
// calls by family.
type EntityStats = entity.Stats

// Table is the entity table a decode keeps.
type Table = entity.Table

// CorrectionCheck is what a file's values say of one correction of
// decoder choice.
type CorrectionCheck = infer.CorrectionCheck

// BasisValues is the Basis of an inferred name whose values show it read
// wrongly while every bit lines up.
const BasisValues = infer.BasisValues

// Game is the file's game.
func (p *Pass) Game() game.Game { return p.r.Game }

// Build is the file header's build number.
func (p *Pass) Build() int32 { return p.r.Header.BuildNum }

// Stats are the decode's counts so far.
func (p *Pass) Stats() DecodeStats { return p.r.Stats }

// EntityStats are the entity table's counts so far.
func (p *Pass) EntityStats() EntityStats { return p.r.Entities.Stats }

// Schema is the file's schema once read (nil before).
func (p *Pass) Schema() *schema.Schema { return p.r.Schema }

// Strings are the string tables as they stand.
func (p *Pass) Strings() *stringtable.Set { return &p.r.Strings }

// Entities is the entity table as it stands.
func (p *Pass) Entities() *Table { return p.r.Entities }

// Aliases are the aliases the pass decodes under.
func (p *Pass) Aliases() schema.Aliases { return p.r.Aliases }

// Done reports whether the decode saw DEM_Stop or the end of the data.
func (p *Pass) Done() bool { return p.r.Done }

// NetTick is the server's tick, the last net_Tick read.
func (p *Pass) NetTick() uint32 { return p.r.NetTick }

// NextTick is the tick of the next command, if there is one.
func (p *Pass) NextTick() (int32, bool) { return p.r.NextTick() }

// Place names a byte offset of the file (in a broadcast capture, the
// fragment and the byte in it).
func (p *Pass) Place(off int) string { return p.r.Place(off) }

// Segments are a broadcast capture's fragments (nil for a .dem file).
func (p *Pass) Segments() []container.Segment { return p.r.Segments() }

// GameFrom says where the game was learned ("svc_ServerInfo" when no file
// header names it).
func (p *Pass) GameFrom() string { return p.r.Source.GameFrom }

// GameWhy says why the game is not known.
func (p *Pass) GameWhy() string { return p.r.GameWhy() }

// StopsAt says where a capture stops ("" for a file).
func (p *Pass) StopsAt() string { return p.r.StopsAt() }

// Format are the field numbers, commands and message types the decode
// met that no definition dembug knows names.
func (p *Pass) Format() []knownfmt.Item { return p.r.Format.Items() }

// FirstMisaligned is the decode's first misaligned message and why (ok
// false for none so far).
func (p *Pass) FirstMisaligned() (at Location, why error, ok bool) {
	if m := p.r.FirstMisaligned; m != nil {
		return m.Loc, m, true
	}
	return Location{}, nil, false
}

// GatherEvidence makes the decode gather value evidence (before it reads
// the schema): what JudgedValues and Corrections then judge.
func (p *Pass) GatherEvidence() { p.r.Entities.GatherEvidence() }

// JudgedValues are the unknown types whose values show them read wrongly,
// of a decode that gathered evidence.
func (p *Pass) JudgedValues() Verdicts { return JudgedValues(p.r) }

// Corrections are what the decode's values say of each correction of
// decoder choice its fields read.
func (p *Pass) Corrections() []CorrectionCheck { return infer.CorrectionEvidence(p.r) }

// ClassIDBits is the width of a create's class id (ReadHeader).
func (p *Pass) ClassIDBits() uint { return p.r.Entities.ClassIDBits }

// RecordBaseline decodes class classID's instance baseline as it stands,
// recording it.
func (p *Pass) RecordBaseline(classID int32) (*provenance.Message, error) {
	return p.r.Entities.RecordBaseline(classID)
}

// Baseline is class classID's instance baseline data as it stands.
func (p *Pass) Baseline(classID int32) []byte { return p.r.Entities.Baseline(classID) }

// LiveEntity is one live entity of a table.
type LiveEntity struct {
	Index  int32
	Serial uint32
	Class  string
	e      *entity.Entity
}

// Fields hands visit every field of the entity's state with its value, in
// the serializer's order.
func (e LiveEntity) Fields(visit func(name string, f *schema.Field, v decoder.Value)) {
	entity.Walk(e.e.Class.Serializer, e.e.State, visit)
}

// EachEntity hands visit every live entity of t in index order.
func EachEntity(t *Table, visit func(LiveEntity)) {
	for _, e := range t.Entities {
		if e == nil || e.Class == nil {
			continue
		}
		visit(LiveEntity{Index: int32(e.Index), Serial: e.Serial, Class: e.Class.Name, e: e})
	}
}

// Anomaly rules and their tally (check --anomalies), named for the
// command line.
type (
	Rule       = diagnose.Rule
	Tally      = diagnose.Tally
	Where      = diagnose.Where
	FieldCount = diagnose.FieldCount
)

// Rules are every anomaly rule.
var Rules = diagnose.Rules

// RuleNamed is the anomaly rule called name.
func RuleNamed(name string) (Rule, bool) { return diagnose.RuleNamed(name) }
