package schema

import (
	"sort"

	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/game"
)

// The seed's tables (choose.go) are what the public parsers read. A few
// types they leave to the default decoder (an unsigned 32-bit varint) are
// written otherwise by the game, which the values prove: a tick read
// unsigned is twice the server tick, a player id 0…9 reads 0…18 and -1
// reads 1, a match id of 33 bits loses its top bit. Corrections read
// those types as the game writes them. Each states what it rests on and
// how each file's values are checked against it (Check, package
// evidence); --decoders seed reads without them (Aliases.Seed).
//
// A correction renames the type before decoder choice, as an --as alias
// does: the field keeps its settings and its name as written, and
// Field.Correction says what was done.

// The checks of a correction are package evidence's.
const (
	CheckZigzag  = evidence.CheckZigzag
	CheckTicks   = evidence.CheckTicks
	CheckPlayers = evidence.CheckPlayers
	CheckWide    = evidence.CheckWide
)

// Correction is one type the game writes otherwise than the seed reads.
type Correction struct {
	Type  string         // the type's name as the schema writes it
	As    string         // the known type it is read as
	Games []game.Game    // the games whose table holds it
	Check evidence.Check // how each file's values are held against it
	// Seed is what the seed's tables read it as; Game what the game
	// writes; Evidence what proves it, in a sentence; Parsers which
	// public parsers read it the seed's way (docs/corrections.md names
	// the releases read).
	Seed, Game, Evidence, Parsers string
}

// The public parsers' readings, as docs/corrections.md gives them.
const (
	allUnsigned32 = "Manta, demoinfocs-golang, Clarity and demoparser2 read it as an unsigned 32-bit varint (their fallback); haste as an unsigned 64-bit one (its fallback): the same value"
	wideCut       = "Manta, demoinfocs-golang, Clarity and demoparser2 read it as an unsigned 32-bit varint (cut to 32 bits); haste reads all 64 bits"
)

// corrections is the table, in the order docs/corrections.md gives it.
// Every entry is re-checked on every file (package evidence, Recheck).
var corrections = []*Correction{
	{Type: "GameTick_t", As: "int32", Games: []game.Game{game.CS2, game.Deadlock, game.Dota2}, Check: CheckTicks,
		Seed: "unsigned varint (fallback)", Game: "zigzag varint",
		Evidence: "read unsigned, the tick fields are twice the server tick (CS2 m_nNextThinkTick 3624 while m_nTickBase is 1811) and -1 (never) reads 1; as int32 they track net_Tick", Parsers: allUnsigned32 + "; demofile-net generates an unsigned 32-bit read"},
	{Type: "PlayerID_t", As: "int32", Games: []game.Game{game.Dota2}, Check: CheckPlayers,
		Seed: "unsigned varint (fallback)", Game: "zigzag varint",
		Evidence: "read unsigned, players 0…9 read 0…18, all even, and 'no player' reads 1; as int32 they are -1 and 0…9, under the server's player slots", Parsers: allUnsigned32},
	{Type: "AbilityID_t", As: "int32", Games: []game.Game{game.Dota2}, Check: CheckZigzag,
		Seed: "unsigned varint (fallback)", Game: "zigzag varint",
		Evidence: "read unsigned, every nonzero ability id is even (up to 2246) and 'none' reads 1; as int32 they are -1 and 0…1123", Parsers: allUnsigned32},
	{Type: "CEntityIndex", As: "int32", Games: []game.Game{game.Dota2}, Check: CheckZigzag,
		Seed: "unsigned varint (Dota's table; CS2's and Deadlock's read it signed)", Game: "zigzag varint (the game registers it as a signed integer)",
		Evidence: "read unsigned, every entity index is even (28 distinct up to 1162); as int32 they are 0…581, indexes of live entities", Parsers: "Manta and Clarity read it as an unsigned 32-bit varint (Dota's table); demoinfocs-golang and demofile-net signed, as the game writes it; demoparser2 and haste as an unsigned 64-bit one"},
	{Type: "MatchID_t", As: "uint64", Games: []game.Game{game.Dota2, game.Deadlock}, Check: CheckWide,
		Seed: "unsigned varint, 32 bits (fallback)", Game: "unsigned varint, 64 bits",
		Evidence: "the match id 7518690009 takes 33 bits; a 32-bit read keeps 3223722713", Parsers: wideCut},
	{Type: "itemid_t", As: "uint64", Games: []game.Game{game.Dota2, game.Deadlock}, Check: CheckWide,
		Seed: "unsigned varint, 32 bits (fallback)", Game: "unsigned varint, 64 bits",
		Evidence: "item ids run above 2^32 (25787853493 reads 3673038725 cut to 32 bits)", Parsers: wideCut + " (demoinfocs-golang names it in its table, as unsigned 32-bit)"},
	{Type: "EAbilitySlots_t", As: "int32", Games: []game.Game{game.Deadlock}, Check: CheckZigzag,
		Seed: "unsigned varint (fallback)", Game: "zigzag varint",
		Evidence: "read unsigned, slots are even (up to 44) and 'no slot' reads 1; as int32 they are -1 and 0…22", Parsers: allUnsigned32 + "; demofile-net as an unsigned 64-bit enum"},
}

// AllCorrections lists every correction of every game.
func AllCorrections() []*Correction { return append([]*Correction(nil), corrections...) }

// CorrectionFor returns the correction of type name in game g, or nil.
// Game Unknown (flags parsed before the file is read) takes every game's.
func CorrectionFor(name string, g game.Game) *Correction {
	for _, c := range corrections {
		if c.Type == name && (g == game.Unknown || c.appliesTo(g)) {
			return c
		}
	}
	return nil
}

func (c *Correction) appliesTo(g game.Game) bool {
	for _, h := range c.Games {
		if h == g {
			return true
		}
	}
	return false
}

// correctedTypes is every corrected name, sorted (for --as targets).
func correctedTypes(g game.Game) []string {
	var out []string
	for _, c := range corrections {
		if g == game.Unknown || c.appliesTo(g) {
			out = append(out, c.Type)
		}
	}
	sort.Strings(out)
	return out
}

// applyCorrection reads f's base type (or a variable array's element
// type) as its correction says, unless the schema reads the seed's
// tables alone. It runs after the --as aliases, so a name aliased to a
// corrected type is corrected too.
func applyCorrection(f *Field, g game.Game, seed bool) {
	if seed || g == game.Unknown {
		return // (CorrectionFor takes Unknown as every game: for --as)
	}
	t := &f.Type
	if c := CorrectionFor(t.Base, g); c != nil {
		f.Correction = c
		t.Base = c.As
		return
	}
	if t.Generic != nil && isVectorType(t.Base) {
		if c := CorrectionFor(t.Generic.Base, g); c != nil {
			el := *t.Generic
			el.Base = c.As
			t.Generic = &el
			f.Correction = c
		}
	}
}
