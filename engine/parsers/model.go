// Package parsers models how public Source 2 demo parsers choose a field's
// decoder, as data read from their published sources at a named release:
// the type tables, the factories that look at a field's settings, the
// overrides by field name, and what each does with a type it does not
// know. A model answers one question — how does this parser read this
// field? — in dembug's terms (Kind), so that a file's forecast (package
// forecast) can set each parser's reading beside what the game wrote,
// and say the entry that fixes it, in the parser's own idiom.
//
// The tables are facts, written in our own form; docs/parsers.md names
// the release and the file each was read from.
package parsers

import (
	"fmt"
	"sort"

	"github.com/dembug/dembug/engine/game"
)

// Kind is how a parser reads a value, in dembug's terms.
type Kind uint8

const (
	None        Kind = iota
	Unsigned         // unsigned varint, 32 bits (a 5-byte read keeps the low 32)
	Signed           // zigzag varint, 32 bits
	Unsigned64       // unsigned varint, 64 bits (8 raw bytes with encoder fixed64)
	Signed64         // zigzag varint, 64 bits
	MinusOne         // unsigned varint minus one
	Bool             // 1 bit
	String           // bytes to a zero byte
	Float            // float32 by the field's settings: coord, simtime, runetime, raw or quantized
	Quantized        // CNetworkedQuantizedFloat: quantized by the field's settings
	NoScale          // a raw 32-bit float whatever the settings
	Vector2          // 2 floats, each by the field's settings
	Vector3          // 3 floats, each by the field's settings (normal: a packed unit vector)
	Vector4          // 4 floats, each by the field's settings
	Vector6          // 6 floats (CTransform)
	QAngle           // an angle by the field's settings
	BinaryBlock      // a varint byte count, then the bytes
	Fixed8           // 8 raw bits
	kindCount
)

var kindNames = [...]string{None: "none", Unsigned: "unsigned varint", Signed: "zigzag varint", Unsigned64: "64-bit unsigned varint",
	Signed64: "64-bit zigzag varint", MinusOne: "unsigned varint minus one", Bool: "1 bit", String: "string",
	Float: "float by its settings", Quantized: "quantized float", NoScale: "raw 32-bit float", Vector2: "2 floats",
	Vector3: "3 floats", Vector4: "4 floats", Vector6: "6 floats", QAngle: "angle by its settings",
	BinaryBlock: "byte count and bytes", Fixed8: "8 bits"}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", k)
}

// Varint reports whether k reads one varint (the bits it takes are the
// same whatever the varint kind, up to 35 bits of value).
func (k Kind) Varint() bool {
	switch k {
	case Unsigned, Signed, Unsigned64, Signed64, MinusOne:
		return true
	}
	return false
}

// Entry is one row of a parser's table: the decoder (or factory) its
// source names for a type, and the kind it reads.
type Entry struct {
	Kind    Kind
	Symbol  string // the decoder or factory as the source names it: signedDecoder, vectorFactory(3)
	Factory bool   // the row sits in the factory table
}

// Model is one parser's decoder choice at one release.
type Model struct {
	ID      string      // stable short name: manta, demoinfocs-golang, …
	Name    string      // as its authors write it
	Release string      // the release (or commit) the tables were read at
	Repo    string      // owner/name
	Games   []game.Game // the games it reads
	// File is the source file holding the tables; TypeTable and
	// FactoryTable the symbols of the type table and the factory table
	// ("" where the parser has none).
	File, TypeTable, FactoryTable string
	// NameTable is the symbol of the table by field name ("" for none).
	NameTable string
	// Factories look at a field's settings; Types are chosen by the base
	// type alone; Names by the field's name. The lookup order is
	// Factories, Names, Types, then the fallback (Manta's, demoinfocs'
	// and Clarity's; a model whose parser looks otherwise says so in
	// Order).
	Factories, Types map[string]Entry
	Names            map[string]Entry
	// ElemFactories: a vector's element type goes through the factories
	// too (else through Types alone, then the fallback).
	ElemFactories bool
	// Fallback is what an unknown type reads as; Stops, when set, is what
	// the parser does instead (throws, errors out).
	Fallback Kind
	Stops    string
	// PerField, when set, says why the model cannot forecast a file: the
	// parser reads most fields by decoders generated per field, which
	// the model (its fallback table) does not hold.
	PerField string
	// entry writes a table row in the parser's idiom.
	entry func(name string, e Entry) string
	// symbols are the parser's decoder per kind (for a fix line), and
	// whether it is a factory.
	symbols map[Kind]Entry
}

// Reads returns how the parser reads a value of base type name with the
// field's var_name field, and whether it knows the type (false: the
// fallback, or Stops).
func (m *Model) Reads(name, field string, elem bool) (Entry, bool) {
	if !elem || m.ElemFactories {
		if e, ok := m.Factories[name]; ok {
			return e, true
		}
	}
	if !elem {
		if e, ok := m.Names[field]; ok {
			return e, true
		}
	}
	if e, ok := m.Types[name]; ok {
		return e, true
	}
	return Entry{Kind: m.Fallback, Symbol: "fallback"}, false
}

// Forecasts reports whether the model can say how the parser reads a
// file of game g: it reads the game, and by tables the model holds.
func (m *Model) Forecasts(g game.Game) bool { return m.PerField == "" && m.ReadsGame(g) }

// ReadsGame reports whether the parser reads files of game g.
func (m *Model) ReadsGame(g game.Game) bool {
	for _, h := range m.Games {
		if h == g {
			return true
		}
	}
	return false
}

// Fix is one line that makes a parser read a type as the game writes it.
type Fix struct {
	File   string `json:"file"`   // the source file, in the parser's repository
	Symbol string `json:"symbol"` // the table the line goes in
	Entry  string `json:"entry"`  // the line
}

// FixFor is the line that makes the parser read type name as kind k, or
// false when the parser has no decoder of that kind.
func (m *Model) FixFor(name string, k Kind) (Fix, bool) {
	e, ok := m.symbols[k]
	if !ok || m.entry == nil {
		return Fix{}, false
	}
	table := m.TypeTable
	if e.Factory {
		table = m.FactoryTable
	}
	return Fix{File: m.File, Symbol: table, Entry: m.entry(name, e)}, true
}

// FixForField is the line that makes the parser read the field of that
// name as kind k (a rule by field name, such as a value sent plus one),
// or false when the parser has no table by name or no such decoder.
func (m *Model) FixForField(field string, k Kind) (Fix, bool) {
	e, ok := m.symbols[k]
	if !ok || m.entry == nil || m.NameTable == "" || e.Factory {
		return Fix{}, false
	}
	return Fix{File: m.File, Symbol: m.NameTable, Entry: m.entry(field, e)}, true
}

// NoFixWhy says why no line of the parser's tables makes it read the type
// (or, with field, the field) name as kind k: what FixFor and FixForField
// found missing. It is "" when one does.
func (m *Model) NoFixWhy(name string, field bool, k Kind) string {
	fix := m.FixFor
	if field {
		fix = m.FixForField
	}
	if _, ok := fix(name, k); ok {
		return ""
	}
	e, ok := m.symbols[k]
	switch {
	case field && m.NameTable == "":
		return "its tables go by type, none by field name: a rule for the name goes in its code"
	case !ok:
		return "no decoder of its reads it as " + k.String()
	case field && e.Factory:
		return "its decoder for " + k.String() + " is a factory, which its table by field name does not take"
	}
	return "dembug models no entry of its tables for it"
}

var models []*Model

func register(m *Model) *Model {
	models = append(models, m)
	sort.Slice(models, func(i, j int) bool { return models[i].ID < models[j].ID })
	return m
}

// All lists every model, by ID.
func All() []*Model { return append([]*Model(nil), models...) }

// ByID returns the model of that ID, or nil.
func ByID(id string) *Model {
	for _, m := range models {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// table builds a type or factory table from kind-grouped names.
func table(factory bool, rows map[Entry][]string) map[string]Entry {
	out := map[string]Entry{}
	for e, names := range rows {
		e.Factory = factory
		for _, n := range names {
			out[n] = e
		}
	}
	return out
}
