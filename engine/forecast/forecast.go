// Package forecast says, for one replay, how each public parser (package
// parsers) reads it against what the game wrote: every read the same
// (right), the same bits but other values (values: which types, and how),
// a first read whose bits differ (misaligns), or a refusal (stops); and
// the table entries that fix each.
//
// It rests on the decode that check makes anyway: Watch picks, before
// it, the fields some parser reads otherwise than dembug, so that the
// decode's value evidence (package evidence) counts their values and
// places their first read; Of then judges per parser. Only a parser whose
// bits part from ours costs more: the one message of its first such read
// is decoded again, recorded, to name the read.
package forecast

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// How a parser reads a file (Result.Reads).
const (
	Right     = "right"
	Values    = "values"
	Misaligns = "misaligns"
	Stops     = "stops"
)

// Result is one parser's forecast for a file.
type Result struct {
	Parser  string        `json:"parser"`
	Release string        `json:"release"`
	Reads   string        `json:"reads"`
	Why     string        `json:"why,omitempty"`    // a stop's reason
	Values  []TypeValues  `json:"values,omitempty"` // the types whose values differ
	First   *First        `json:"first,omitempty"`  // the first read whose bits differ
	Fix     []parsers.Fix `json:"fix,omitempty"`
	// Unfixed are the types and fields the parser reads otherwise that no
	// line of its tables fixes (a value sent plus one, to a parser whose
	// tables go by type alone): without them the fix lines would read as
	// the whole mend.
	Unfixed []Unfixed `json:"unfixed,omitempty"`
}

// Unfixed is a type or field no line of a parser's tables makes it read
// as the game writes it, and why.
type Unfixed struct {
	Name  string `json:"name"`
	Field bool   `json:"field,omitempty"` // a field by its name, not a type
	Why   string `json:"why"`
}

// TypeValues is one type a parser reads with the right bits and other
// values.
type TypeValues struct {
	Type   string `json:"type"`
	How    string `json:"how"` // doubled, cut to 32 bits, …
	Fields int    `json:"fields"`
}

// First is the first read whose bits a parser reads otherwise.
type First struct {
	Tick      int32  `json:"tick"`
	Entity    int32  `json:"entity"`
	Class     string `json:"class"`
	Field     string `json:"field"`
	Type      string `json:"type"`
	Theirs    string `json:"theirs"`
	Ours      string `json:"ours"`
	BitOffset uint   `json:"bit_offset"`
	// InBaseline: the read is in an instance baseline of a class the
	// message creates (Entity, Class and Field are then unknown).
	InBaseline bool `json:"in_baseline,omitempty"`
}

// Truth is what the game wrote for a field: dembug's decoder family, or
// the known type an inference found its unknown type to be (a values or
// alignment finding, by type name). Nil: the field's own decoder.
type Truth func(f *schema.Field) (parsers.Kind, bool)

// Watch is the predicate to watch, in a decode of a file of game g, the
// fields some parser of g reads otherwise than dembug does.
func Watch(g game.Game) func(*schema.Field) bool {
	ms := modelsOf(g)
	return func(f *schema.Field) bool {
		ours, ok := fieldKind(f, nil)
		if !ok {
			return false
		}
		for _, m := range ms {
			if theirs := parserEntry(m, f); !SameKind(theirs.Kind, ours) {
				return true
			}
		}
		return false
	}
}

func modelsOf(g game.Game) []*parsers.Model {
	var out []*parsers.Model
	for _, m := range parsers.All() {
		if m.Forecasts(g) {
			out = append(out, m)
		}
	}
	return out
}

// written is the name a parser looks the field up by: the base type as
// the schema writes it (a vector's element type), before dembug's
// aliases and corrections.
func written(f *schema.Field) (string, bool) {
	t := f.Written()
	if f.Model == schema.VariableArray {
		if t.Generic == nil {
			return "", false
		}
		return t.Generic.Base, true
	}
	return t.Base, true
}

func parserEntry(m *parsers.Model, f *schema.Field) parsers.Entry {
	name, _ := written(f)
	e, _ := m.Reads(name, f.Name, f.Model == schema.VariableArray)
	return e
}

// fieldKind is the kind dembug reads a field's values as (the element's
// for a vector); false for fields that hold no value of their own
// (tables, pointers).
func fieldKind(f *schema.Field, truth Truth) (parsers.Kind, bool) {
	if f.Serializer != nil {
		return 0, false
	}
	if truth != nil {
		if k, ok := truth(f); ok {
			return k, true
		}
	}
	d := f.Decoder
	if f.Model == schema.VariableArray {
		d = f.Elem
	}
	if d == nil {
		return 0, false
	}
	return KindOf(d), true
}

// KindOf is the kind a decoder reads as.
func KindOf(d *decoder.Decoder) parsers.Kind {
	switch d.Family {
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamHandle:
		return parsers.Unsigned
	case decoder.FamSigned:
		return parsers.Signed
	case decoder.FamUnsigned64, decoder.FamFixed64:
		return parsers.Unsigned64
	case decoder.FamSigned64:
		return parsers.Signed64
	case decoder.FamUnsignedMinusOne:
		return parsers.MinusOne
	case decoder.FamBool:
		return parsers.Bool
	case decoder.FamString:
		return parsers.String
	case decoder.FamNoScale:
		return parsers.NoScale
	case decoder.FamQuantized, decoder.FamCoord, decoder.FamSimTime, decoder.FamRuneTime:
		return parsers.Float
	case decoder.FamNormal:
		return parsers.Vector3
	case decoder.FamVector:
		switch d.Components {
		case 2:
			return parsers.Vector2
		case 4:
			return parsers.Vector4
		case 6:
			return parsers.Vector6
		}
		return parsers.Vector3
	case decoder.FamQAngleBits, decoder.FamQAngleCoord, decoder.FamQAnglePrecise, decoder.FamQAnglePitchYaw:
		return parsers.QAngle
	case decoder.FamBinaryBlock:
		return parsers.BinaryBlock
	}
	return parsers.None
}

// KindOfType is the kind of a known type's values (an inference's As).
func KindOfType(name string) (parsers.Kind, bool) {
	switch name {
	case "int8", "int16", "int32":
		return parsers.Signed, true
	case "int64":
		return parsers.Signed64, true
	case "uint8", "uint16", "uint32", "color32", "Color", "CUtlStringToken", "CHandle", "CEntityHandle":
		return parsers.Unsigned, true
	case "uint64", "CStrongHandle", "ResourceId_t", "HeroFacetKey_t":
		return parsers.Unsigned64, true
	case "bool":
		return parsers.Bool, true
	case "char", "CUtlString", "CUtlSymbolLarge", "CGlobalSymbol":
		return parsers.String, true
	case "float32", "CNetworkedQuantizedFloat":
		return parsers.Float, true
	case "GameTime_t":
		return parsers.NoScale, true
	case "Vector", "VectorWS":
		return parsers.Vector3, true
	case "Vector2D":
		return parsers.Vector2, true
	case "Vector4D", "Quaternion":
		return parsers.Vector4, true
	case "QAngle":
		return parsers.QAngle, true
	case "CUtlBinaryBlock":
		return parsers.BinaryBlock, true
	}
	return parsers.None, false
}

// SameKind reports whether a parser's kind and ours read alike: a float
// factory and any float family dembug chose from the same settings (raw
// when the settings give no bit count).
func SameKind(theirs, ours parsers.Kind) bool {
	if theirs == ours {
		return true
	}
	// A 64-bit read of what dembug reads in 32 bits gets the same value
	// from the same bits (haste reads every unsigned type so).
	if theirs == parsers.Unsigned64 && ours == parsers.Unsigned || theirs == parsers.Signed64 && ours == parsers.Signed {
		return true
	}
	float := func(k parsers.Kind) bool { return k == parsers.Float || k == parsers.Quantized || k == parsers.NoScale }
	// An angle factory reads a 32-bit QAngle as three raw floats, as
	// dembug does.
	angle := func(k parsers.Kind) bool { return k == parsers.QAngle || k == parsers.Vector3 }
	return float(theirs) && float(ours) || theirs == parsers.QAngle && angle(ours)
}

// proven reports whether dembug's reading of f is more than its own
// fallback: a type decoder choice knows, a correction, or an unknown type
// the inference found (truth). Where dembug guesses as a parser does, the
// forecast has nothing to say.
func proven(f *schema.Field, truth Truth) bool {
	if f.UnknownType == "" {
		return true
	}
	if truth != nil {
		_, ok := truth(f)
		return ok
	}
	return false
}

// Break is the read where a file that misaligned stops making sense, and
// what the inference found its type to be: dembug misread it there, and
// so does every parser that reads the type otherwise than the game wrote.
type Break struct {
	Type  string       // the unknown type, as the schema writes it
	Kind  parsers.Kind // what the inference found it to be
	First First        // the read (Theirs and Ours are set per parser)
}

// Of forecasts each parser of the file's game from r, a decode of the
// file under what the game wrote that gathered evidence with Watch; data
// is the file, a the decode's aliases (to record the message of a first
// differing read: with nil data the first read is named by its field and
// message alone, at no cost), truth the inference's types for unknown
// names. brk,
// when the file misaligned and the inference found what aligns it, is
// where: the decode's values before it still count.
func Of(r *replay.Replay, data []byte, a schema.Aliases, truth Truth, brk *Break) []Result {
	if r == nil || r.Schema == nil || r.Entities.Evidence == nil {
		return nil
	}
	var out []Result
	for _, m := range modelsOf(r.Game) {
		res := one(m, r, data, a, truth)
		res.atBreak(m, brk)
		out = append(out, res)
	}
	return out
}

// atBreak makes res misalign at the break when the parser reads the
// break's type otherwise than the game wrote it, with the fix for it.
func (res *Result) atBreak(m *parsers.Model, brk *Break) {
	if brk == nil {
		return
	}
	theirs, _ := m.Reads(brk.Type, brk.First.Field, false)
	if SameKind(theirs.Kind, brk.Kind) {
		return
	}
	if res.Reads != Stops {
		f := brk.First
		f.Theirs, f.Ours = theirsText(m, theirs), brk.Kind.String()
		res.Reads, res.First = Misaligns, &f
	}
	fx, ok := m.FixFor(brk.Type, brk.Kind)
	switch {
	case ok && !hasEntry(res.Fix, fx.Entry):
		res.Fix = append(res.Fix, fx)
		sort.SliceStable(res.Fix, func(i, j int) bool {
			if res.Fix[i].Symbol != res.Fix[j].Symbol {
				return res.Fix[i].Symbol < res.Fix[j].Symbol
			}
			return res.Fix[i].Entry < res.Fix[j].Entry
		})
	case !ok:
		res.noFix(m, brk.Type, false, brk.Kind)
	}
}

// UnfixedGroup is the names no table line fixes for one reason.
type UnfixedGroup struct {
	Why   string
	Names []string
}

// UnfixedGroups is Unfixed grouped by reason, in the order each reason
// first comes.
func (r Result) UnfixedGroups() []UnfixedGroup {
	var gs []UnfixedGroup
	for _, u := range r.Unfixed {
		i := slices.IndexFunc(gs, func(g UnfixedGroup) bool { return g.Why == u.Why })
		if i < 0 {
			gs = append(gs, UnfixedGroup{Why: u.Why})
			i = len(gs) - 1
		}
		gs[i].Names = append(gs[i].Names, u.Name)
	}
	return gs
}

// noFix notes that no line of m's tables fixes name (once).
func (res *Result) noFix(m *parsers.Model, name string, field bool, k parsers.Kind) {
	for _, u := range res.Unfixed {
		if u.Name == name && u.Field == field {
			return
		}
	}
	res.Unfixed = append(res.Unfixed, Unfixed{Name: name, Field: field, Why: m.NoFixWhy(name, field, k)})
}

func hasEntry(fs []parsers.Fix, entry string) bool {
	for _, f := range fs {
		if f.Entry == entry {
			return true
		}
	}
	return false
}

// diff is one field a parser reads otherwise, with its values.
type diff struct {
	f           *schema.Field
	theirs      parsers.Entry
	ours        parsers.Kind
	tally       *evidence.Tally
	bits        bool   // the bits differ (else the values)
	how         string // for values
	writtenName string
	knownToThem bool
	// byName: ours comes from a rule by the field's name or serializer
	// (a value sent plus one), which the fix names the field for.
	byName bool
}

func one(m *parsers.Model, r *replay.Replay, data []byte, a schema.Aliases, truth Truth) Result {
	res := Result{Parser: m.ID, Release: m.Release, Reads: Right}
	ts := r.Entities.Evidence.Tallies
	var diffs []diff
	for w := 1; w < len(ts); w++ {
		t := &ts[w]
		f := r.Schema.WatchedField(uint16(w))
		if f == nil || t.N == 0 || !proven(f, truth) {
			continue
		}
		ours, ok := fieldKind(f, truth)
		if !ok {
			continue
		}
		name, _ := written(f)
		theirs, known := m.Reads(name, f.Name, f.Model == schema.VariableArray)
		if SameKind(theirs.Kind, ours) {
			continue
		}
		d := diff{f: f, theirs: theirs, ours: ours, tally: t, writtenName: name, knownToThem: known, byName: ours == parsers.MinusOne}
		d.bits, d.how = compare(theirs.Kind, ours, t)
		if !d.bits && d.how == "" {
			continue // no value of this file reads otherwise
		}
		diffs = append(diffs, d)
	}
	if m.Stops != "" {
		for _, d := range diffs {
			if !d.knownToThem {
				res.Reads, res.Why = Stops, fmt.Sprintf("%s: %s", d.writtenName, m.Stops)
				break
			}
		}
	}
	var first *diff
	values := map[string]*TypeValues{}
	fixes := map[fixKey]parsers.Kind{}
	for i := range diffs {
		d := &diffs[i]
		key := d.writtenName
		if d.byName {
			key = d.f.Name + " (" + d.writtenName + ")"
			fixes[fixKey{d.f.Name, true}] = d.ours
		} else {
			// A type's line is one kind for all its fields. Under an
			// inferred alias dembug reads each field of a float type by
			// its settings: raw (NoScale) where they give no bit count, as
			// a float factory reads it too. The factory is then the line:
			// the raw decoder misreads the others (a renamed float32's
			// simulation times).
			k := fixKey{d.writtenName, false}
			if old := fixes[k]; old == parsers.None || old == parsers.NoScale && d.ours == parsers.Float {
				fixes[k] = d.ours
			}
		}
		if d.bits {
			if first == nil || before(d.tally.First, first.tally.First) {
				first = d
			}
			continue
		}
		tv := values[key]
		if tv == nil {
			tv = &TypeValues{Type: key, How: d.how}
			values[key] = tv
		}
		tv.Fields++
	}
	for _, tv := range values {
		res.Values = append(res.Values, *tv)
	}
	sort.Slice(res.Values, func(i, j int) bool { return res.Values[i].Type < res.Values[j].Type })
	switch {
	case res.Reads == Stops:
	case first != nil:
		res.Reads = Misaligns
		res.First = firstRead(first, r, data, a, m, truth)
	case len(res.Values) > 0:
		res.Reads = Values
	}
	keys := make([]fixKey, 0, len(fixes))
	for k := range fixes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].name < keys[j].name })
	for _, k := range keys {
		fix := m.FixFor
		if k.field {
			fix = m.FixForField
		}
		if fx, ok := fix(k.name, fixes[k]); ok {
			res.Fix = append(res.Fix, fx)
		} else {
			res.noFix(m, k.name, k.field, fixes[k])
		}
	}
	sort.SliceStable(res.Fix, func(i, j int) bool { return res.Fix[i].Symbol < res.Fix[j].Symbol })
	return res
}

// fixKey is what a fix line names: a type, or a field by its name.
type fixKey struct {
	name  string
	field bool
}

func before(a, b evidence.At) bool {
	if a.Command != b.Command {
		return a.Command < b.Command
	}
	return a.Message < b.Message
}

// compare says whether a parser's kind for a field takes other bits than
// ours, and else how its values differ over the values t counted ("" for
// none).
func compare(theirs, ours parsers.Kind, t *evidence.Tally) (bits bool, how string) {
	if !theirs.Varint() || !ours.Varint() {
		return true, ""
	}
	narrow := func(k parsers.Kind) bool {
		return k == parsers.Unsigned || k == parsers.Signed || k == parsers.MinusOne
	}
	if narrow(theirs) && !narrow(ours) && t.CutMax >= 1<<35 {
		return true, "" // a 32-bit read stops inside a varint of 36 bits or more
	}
	nonzero := t.Odd+t.Even > 0
	signed := func(k parsers.Kind) bool { return k == parsers.Signed || k == parsers.Signed64 }
	switch {
	case theirs == parsers.MinusOne || ours == parsers.MinusOne:
		return false, "off by one (the value is sent plus one)"
	case !signed(theirs) && signed(ours) && nonzero:
		return false, "doubled: a zigzag varint read unsigned (-1 reads 1)"
	case signed(theirs) && !signed(ours) && nonzero:
		return false, "halved: an unsigned varint read as zigzag (odd values read negative)"
	case narrow(theirs) && !narrow(ours) && t.Cut > 0:
		return false, "cut to 32 bits"
	}
	return false, ""
}

// firstRead names the first read of d's field in the message where it
// was first read, recording that message again.
func firstRead(d *diff, r *replay.Replay, data []byte, a schema.Aliases, m *parsers.Model, truth Truth) *First {
	at := d.tally.First
	out := &First{Tick: at.Tick, Entity: -1, Type: d.f.VarType, Field: d.f.Name,
		Theirs: theirsText(m, d.theirs), Ours: d.ours.String()}
	if data == nil {
		return out // (the watched field's first read, its entity unknown)
	}
	c, err := diagnose.CaptureAtWith(data, replay.Location{Command: int(at.Command), Message: int(at.Message)}, a)
	if err != nil {
		out.InBaseline = true
		return out
	}
	for i := range c.Record.Fields {
		rf := &c.Record.Fields[i]
		if rf.Schema == nil || !proven(rf.Schema, truth) {
			continue
		}
		ours, ok := fieldKind(rf.Schema, truth)
		if !ok {
			continue
		}
		name, _ := written(rf.Schema)
		theirs, _ := m.Reads(name, rf.Schema.Name, rf.Schema.Model == schema.VariableArray)
		if bits, _ := compare(theirs.Kind, ours, d.tally); bits && !SameKind(theirs.Kind, ours) {
			u := c.Record.Updates[rf.Update]
			out.Entity, out.Class, out.Field, out.Type = int32(u.Index), u.Class, rf.Name, rf.Schema.VarType
			out.Theirs, out.Ours, out.BitOffset = theirsText(m, theirs), ours.String(), rf.Start
			return out
		}
	}
	out.InBaseline = true // in a baseline the message's creates read
	return out
}

func theirsText(m *parsers.Model, e parsers.Entry) string {
	if e.Symbol == "fallback" {
		if m.Stops != "" {
			return "none: " + m.Stops
		}
		return e.Kind.String() + " (its fallback for a type it does not know)"
	}
	return fmt.Sprintf("%s (%s)", e.Kind, e.Symbol)
}

// Sentence says a forecast in one line, for check's parsers: lines.
func (r Result) Sentence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s reads it %s", r.Parser, r.Release, r.Reads)
	switch r.Reads {
	case Stops:
		fmt.Fprintf(&b, " (%s)", r.Why)
	case Misaligns:
		f := r.First
		switch {
		case f.InBaseline && f.Class != "":
			fmt.Fprintf(&b, " from tick %d, in the instance baseline of %s (entity %d), field %s (%s) at bit %d of it: theirs %s, ours %s",
				f.Tick, f.Class, f.Entity, f.Field, f.Type, f.BitOffset, f.Theirs, f.Ours)
		case f.InBaseline:
			fmt.Fprintf(&b, " from tick %d: %s (%s) in an instance baseline, theirs %s, ours %s", f.Tick, f.Field, f.Type, f.Theirs, f.Ours)
		case f.Entity < 0:
			fmt.Fprintf(&b, " from tick %d, at its first read of %s (%s): theirs %s, ours %s", f.Tick, f.Field, f.Type, f.Theirs, f.Ours)
		default:
			fmt.Fprintf(&b, " from tick %d, entity %d (%s), field %s (%s) at bit %d: theirs %s, ours %s", f.Tick, f.Entity, f.Class, f.Field, f.Type, f.BitOffset, f.Theirs, f.Ours)
		}
	case Values:
		var vs []string
		for _, v := range r.Values {
			vs = append(vs, fmt.Sprintf("%s %s", v.Type, v.How))
		}
		fmt.Fprintf(&b, ": %s", strings.Join(vs, "; "))
	}
	return b.String()
}
