package diagnose

import (
	"github.com/dembug/dembug/engine/provenance"
)

// Threshold is the anomaly score from which a field is a suspect.
const Threshold = 0.5

// Suspect is where the decode of a message most likely goes wrong.
type Suspect struct {
	Update  int    // index into the message's updates
	Field   int    // index into the message's fields, -1 when no field is to blame
	Entity  int32  // entity index
	Class   string // entity class
	Name    string // field name
	Bit     uint   // bit offset (value start) from the start of the entity data
	Decoder string
	Reason  string
	Score   float64
}

// Report is the diagnosis of one recorded message.
type Report struct {
	Anomalies  [][]Anomaly // per field of the message
	Count      int         // anomalies over all fields
	Misaligned bool
	End        *Anomaly // unread / over-read / path problem at message level
	First      *Suspect // first suspicious field, when misaligned or any field is a suspect
}

// Message checks every field of a recorded message. exists may be nil.
func Message(m *provenance.Message, exists Lookup) Report {
	rep := Report{Anomalies: make([][]Anomaly, len(m.Fields))}
	for i := range m.Fields {
		a := Field(&m.Fields[i], exists)
		for j := range a {
			if a[j].Rule == VarintOverflow {
				if d, ok := overflowDetail(m, &m.Fields[i]); ok {
					a[j].Detail = d
				}
			}
		}
		if i > 0 && m.Fields[i-1].Update == m.Fields[i].Update && !m.Fields[i-1].Path.Before(&m.Fields[i].Path) {
			a = append(a, hit(PathOrder, "%s after %s", m.Fields[i].Path, m.Fields[i-1].Path))
		}
		rep.Anomalies[i] = a
		rep.Count += len(a)
	}
	rule := map[provenance.Problem]Rule{provenance.OverRead: OverRead, provenance.Unread: UnreadBits, provenance.BadPath: PathOutside}
	switch r, known := rule[m.Problem]; {
	case m.Err == nil:
	case known:
		a := hit(r, "%s", m.Err)
		rep.End = &a
	default:
		a := Anomaly{Rule: "decode error", Score: 1, Detail: m.Err.Error()}
		rep.End = &a
	}
	if m.BadDeletions > 0 && rep.End == nil {
		a := hit(BadDeletion, "%d of %d deletions", m.BadDeletions, m.Deletions)
		rep.End = &a
	}
	rep.Misaligned = m.Err != nil
	if rep.End != nil {
		rep.Count++
	}
	rep.First = firstSuspect(m, &rep)
	return rep
}

// firstSuspect picks, in stream order, the first field that trips a rule
// at or above Threshold. A read by the default decoder is not one in
// itself: the seed makes it the rule for enums and ids (which unknown name
// breaks a message is for the inference to test). A misaligned message with
// no such field blames the last field read before the failure, since the
// shift happened at or before it.
func firstSuspect(m *provenance.Message, rep *Report) *Suspect {
	for i := range m.Fields {
		best := Anomaly{}
		for _, a := range rep.Anomalies[i] {
			if a.Rule != Fallback && a.Score > best.Score {
				best = a
			}
		}
		if best.Score >= Threshold {
			return suspectAt(m, i, best)
		}
	}
	if !rep.Misaligned {
		return nil
	}
	if n := len(m.Fields); n > 0 {
		return suspectAt(m, n-1, *rep.End)
	}
	s := &Suspect{Field: -1, Update: len(m.Updates) - 1, Reason: rep.End.String(), Score: rep.End.Score}
	if s.Update >= 0 {
		u := m.Updates[s.Update]
		s.Entity, s.Class, s.Bit = u.Index, u.Class, u.Start
	}
	return s
}

func suspectAt(m *provenance.Message, i int, a Anomaly) *Suspect {
	f := &m.Fields[i]
	u := m.Updates[f.Update]
	return &Suspect{
		Update: f.Update, Field: i, Entity: u.Index, Class: u.Class, Name: f.Name,
		Bit: f.Start, Decoder: f.Decoder.Describe(), Reason: a.String(), Score: a.Score,
	}
}

// Weight adds up the report's anomaly scores, reads by the default decoder
// aside (the seed's rule for enums and ids, not a symptom): how implausible
// a decode's values are, to rank hypotheses by.
func (rep Report) Weight() float64 {
	w := 0.0
	for _, as := range rep.Anomalies {
		w += weight(as)
	}
	return w
}

// weight is Weight for one field's anomalies.
func weight(as []Anomaly) float64 {
	w := 0.0
	for _, a := range as {
		if a.Rule != Fallback {
			w += a.Score
		}
	}
	return w
}
