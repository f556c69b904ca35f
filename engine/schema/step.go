package schema

import (
	"fmt"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
)

// Step is one level of a field path: the path's index at depth I picks
// Field of a serializer, and the path either ends within that field or goes
// on in a nested serializer. The engine's state, the writer and the views
// all walk paths by these rules.
type Step struct {
	Field *Field
	// Elem reports that the path names an element of Field (an array's
	// element, or a variable table's element the path goes on in): its
	// index is the path's index at depth I+1.
	Elem bool
	// Ser is the serializer the path goes on in, at depth Next; nil when
	// the path ends within Field.
	Ser  *Serializer
	Next int
	// Dec is the decoder of what the path names when it ends within Field
	// (a value, an element, a length or a presence bit). Why says why
	// Field's decoder was chosen, or its elements' for an element of a
	// variable array.
	Dec *decoder.Decoder
	Why string
}

// StepError says a field path does not fit its serializer at one level.
type StepError struct {
	Msg   string
	Field *Field // the field the path does not fit; nil when the index is outside the serializer
}

func (e *StepError) Error() string { return e.Msg }

// StepAt reads level i of path p in serializer ser. ptr gives the value of
// the field the level names; it is called only for a polymorphic pointer the
// path goes through (Nested). On an error the Step holds what the level
// names so far (Field, and Elem when the path gives an element index).
func StepAt(ser *Serializer, p *fieldpath.Path, i int, ptr func() decoder.Value) (Step, error) {
	idx := p.Idx[i]
	if ser == nil || idx < 0 || int(idx) >= len(ser.Fields) {
		name, n := "", 0
		if ser != nil {
			name, n = ser.Name, len(ser.Fields)
		}
		return Step{}, &StepError{Msg: fmt.Sprintf("index %d at depth %d is outside %s (%d fields)", idx, i, name, n)}
	}
	f := ser.Fields[idx]
	s := Step{Field: f, Dec: f.Decoder, Why: f.Why}
	last := i == p.Last
	switch f.Model {
	case Simple:
		if !last {
			return s, &StepError{fmt.Sprintf("continues below simple field %s", f.Name), f}
		}
	case FixedArray:
		s.Elem = i < p.Last
		if i+1 != p.Last {
			return s, &StepError{fmt.Sprintf("fixed array %s needs exactly one element index", f.Name), f}
		}
		if k := p.Idx[i+1]; k < 0 || int(k) >= f.Type.Count {
			return s, &StepError{fmt.Sprintf("element %d of %s[%d]", k, f.Name, f.Type.Count), f}
		}
	case VariableArray:
		if last {
			break
		}
		s.Elem, s.Dec, s.Why = true, f.Elem, f.ElemWhy
		if i+1 != p.Last {
			return s, &StepError{fmt.Sprintf("variable array %s needs exactly one element index", f.Name), f}
		}
	case FixedTable:
		if !last {
			s.Dec = nil
			s.Ser, s.Next = f.Nested(ptr()), i+1
		}
	case VariableTable:
		if last {
			break
		}
		s.Elem, s.Dec = true, nil
		if i+1 == p.Last {
			return s, &StepError{fmt.Sprintf("ends at an element of %s without naming its field", f.Name), f}
		}
		s.Ser, s.Next = f.Serializer, i+2
	}
	return s, nil
}
