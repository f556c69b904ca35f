package session

import (
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Verdicts are the unknown types whose values show them read wrongly.
type Verdicts []Verdict

// Verdict is one of them: its name, the values' tally and what they show.
type Verdict = infer.NameEvidence

// JudgedValues is what a decode gathering value evidence (the index
// pass's, stats') showed of the unknown types' values: the ones read
// wrongly while every bit lines up (a signed type read unsigned, a 64-bit
// one cut to 32 bits). Gathered on the decode itself (package evidence):
// no decode of its own.
func JudgedValues(r *replay.Replay) Verdicts {
	var out Verdicts
	for _, ne := range infer.ValueEvidence(r) {
		if ne.Verdict.Kind != evidence.Unsure {
			out = append(out, ne)
		}
	}
	if out == nil {
		out = Verdicts{} // judged, nothing found
	}
	return out
}

// ValuesOf returns what the index found of the values of the unknown type
// a field carries, or nil.
func (ix *Index) ValuesOf(f *schema.Field) *infer.NameEvidence {
	if f == nil || f.UnknownType == "" {
		return nil
	}
	for i := range ix.Values {
		if ix.Values[i].Name == f.UnknownType {
			return &ix.Values[i]
		}
	}
	return nil
}

// ValueAliases are the --as aliases that read every type the index's
// values judged as they show, added to a.
func (ix *Index) ValueAliases(a schema.Aliases) schema.Aliases {
	for _, ne := range ix.Values {
		a = a.With(schema.KindType, ne.Name, ne.Verdict.As)
	}
	return a
}

// CorrectionOf is what the index's values said of correction c, or nil
// (not done, or no field of the file read it).
func (ix *Index) CorrectionOf(c *schema.Correction) *infer.CorrectionCheck {
	for i := range ix.Corrections {
		if ix.Corrections[i].Correction == c {
			return &ix.Corrections[i]
		}
	}
	return nil
}
