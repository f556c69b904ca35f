package infer

import (
	"sort"

	ev "github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// What a finding rests on (Finding.Basis).
const (
	BasisAlignment = "alignment"
	BasisValues    = "values"
)

// NameEvidence is what the values of one unknown type's fields showed over
// a decode.
type NameEvidence struct {
	Name    string
	Tally   ev.Tally
	Fields  int // fields that had values
	Verdict ev.Verdict
	// FieldNames are those fields' names, the first decoded first (a
	// search for FieldNames[0] finds the name's first read).
	FieldNames []string
}

// ValueEvidence merges, per unknown type, the tallies a decode gathered
// (replay's table with GatherEvidence) and judges them; sorted by name.
func ValueEvidence(r *replay.Replay) []NameEvidence {
	if r == nil || r.Schema == nil || r.Entities.Evidence == nil {
		return nil
	}
	by := map[string]*NameEvidence{}
	ts := r.Entities.Evidence.Tallies
	for w := 1; w < len(ts); w++ {
		f := r.Schema.WatchedField(uint16(w))
		if f == nil || ts[w].N == 0 || f.UnknownType == "" {
			continue // (a corrected field: CorrectionEvidence)
		}
		ne := by[f.UnknownType]
		if ne == nil {
			ne = &NameEvidence{Name: f.UnknownType}
			by[f.UnknownType] = ne
		}
		ne.Tally.Merge(&ts[w])
		ne.Fields++
		ne.FieldNames = append(ne.FieldNames, f.Name)
	}
	out := make([]NameEvidence, 0, len(by))
	for _, ne := range by {
		ne.Verdict = ev.Judge(ne.Tally, ne.Fields)
		out = append(out, *ne)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CorrectionCheck is what one file's values say of one correction of
// decoder choice (schema's correct.go).
type CorrectionCheck struct {
	Correction *schema.Correction
	Tally      ev.Tally
	Fields     int // fields that had values
	ev.Recheck
}

// CorrectionEvidence holds, per correction the schema applied, the values
// its fields read over a decode (replay's table with GatherEvidence)
// against the correction's check; in the table's order. A correction no
// field of the file read is absent.
func CorrectionEvidence(r *replay.Replay) []CorrectionCheck {
	if r == nil || r.Schema == nil || r.Entities.Evidence == nil {
		return nil
	}
	by := map[*schema.Correction]*CorrectionCheck{}
	ts := r.Entities.Evidence.Tallies
	for w := 1; w < len(ts); w++ {
		f := r.Schema.WatchedField(uint16(w))
		if f == nil || f.Correction == nil || ts[w].N == 0 {
			continue
		}
		cc := by[f.Correction]
		if cc == nil {
			cc = &CorrectionCheck{Correction: f.Correction}
			by[f.Correction] = cc
		}
		cc.Tally.Merge(&ts[w])
		cc.Fields++
	}
	var out []CorrectionCheck
	for _, c := range schema.AllCorrections() {
		if cc := by[c]; cc != nil {
			cc.Recheck = ev.RecheckTally(c.Check, cc.Tally, cc.Fields, r.Server.MaxClients)
			out = append(out, *cc)
		}
	}
	return out
}

// addValueFindings adds a finding for each unknown type whose values, over
// a whole-file decode (values: its ValueEvidence), show it read wrongly (a
// name inferred from alignment already is left alone), and its alias to
// ch.Aliases.
func (ch *Checked) addValueFindings(values []NameEvidence) {
	found := map[string]bool{}
	for _, f := range ch.Findings {
		if f.Kind == schema.KindType {
			found[f.Unknown] = true
		}
	}
	for _, ne := range values {
		v := ne.Verdict
		if v.Kind == ev.Unsure || found[ne.Name] {
			continue
		}
		evidence := v.Evidence
		if t := &ne.Tally; v.Kind == ev.Signed && t.TickHalf > t.TickWhole && t.TickText() != "" {
			evidence += "; " + t.TickText() // a tick type read unsigned
		}
		ch.Findings = append(ch.Findings, Finding{Kind: schema.KindType, Unknown: ne.Name, As: v.As, Fields: v.Fields,
			Evidence: evidence, Basis: BasisValues, Values: v.Values, Reads: v.Reads})
		ch.Aliases = ch.Aliases.With(schema.KindType, ne.Name, v.As)
	}
}
