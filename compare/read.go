package compare

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
)

// Read is one field read, theirs (from a trace) or ours (from the decode).
type Read struct {
	Line     int // 1-based line of a trace; 0 for ours
	Tick     int64
	Command  int64 // -1 when not given
	Message  int64 // -1 when not given
	Entity   int32
	Class    string
	Path     []int32 // nil when not given
	Name     string
	Decoder  string
	Offset   int64 // bit offset from the start of the entity data; -1 when not given
	Bits     int64 // -1 when not given
	Baseline bool  // read from the class's instance baseline
	Value    json.RawMessage

	// Ours only.
	Kind decoder.Kind // what the value is (KindNone for theirs)
	// Update and Field place the read in its message's record: the
	// update's index, the field's index within the update (-1 for a
	// baseline read).
	Update, Field int
	Why           string // why the decoder was chosen
	data          []byte // the entity data (or baseline) the read is in
}

// traceLine is one trace line as JSON; pointers tell absent keys.
type traceLine struct {
	Tick      *int64          `json:"tick"`
	Command   *int64          `json:"command"`
	Message   *int64          `json:"message"`
	Entity    *int64          `json:"entity"`
	Class     string          `json:"class"`
	Path      []int32         `json:"path"`
	Name      *string         `json:"name"`
	Decoder   string          `json:"decoder"`
	BitOffset *int64          `json:"bit_offset"`
	Bits      *int64          `json:"bits"`
	Value     json.RawMessage `json:"value"`
	In        string          `json:"in"`
}

// LineError is a trace line that cannot be read.
type LineError struct {
	Line int
	Err  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Err) }

// ParseTrace reads a trace: one JSON object per line (blank lines are
// skipped). A line that is not a JSON object, or lacks tick, entity, name or
// value, is an error naming the line.
func ParseTrace(r io.Reader) ([]Read, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	// Reads gather in blocks, copied once into a slice of the right size:
	// a growing slice would hold up to three times the reads at its last
	// growth.
	var blocks [][]Read
	var reads []Read
	a := &arena{strs: map[string]string{}}
	in := func(s string) string { return a.str([]byte(s)) }
	var nums [6]int64
	var name string
	var l traceLine
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		l = traceLine{}
		if b[0] != '{' {
			return nil, &LineError{n, "not a JSON object"}
		}
		if !fastLine(b, &l, &nums, &name, a) {
			l = traceLine{}
			if err := json.Unmarshal(b, &l); err != nil {
				return nil, &LineError{n, "not JSON: " + err.Error()}
			}
			if l.Value != nil {
				l.Value = a.bytes(l.Value)
			}
		}
		var missing []string
		if l.Tick == nil {
			missing = append(missing, "tick")
		}
		if l.Entity == nil {
			missing = append(missing, "entity")
		}
		if l.Name == nil {
			missing = append(missing, "name")
		}
		if l.Value == nil {
			missing = append(missing, "value")
		}
		if len(missing) > 0 {
			return nil, &LineError{n, fmt.Sprintf("no %q (a read needs tick, entity, name and value)", missing)}
		}
		// What does not fit is refused, not cut to fit: a tick cut to 32
		// bits, or an entity to its low bits, would compare another read.
		if *l.Tick != int64(int32(*l.Tick)) {
			return nil, &LineError{n, fmt.Sprintf("tick %d is no demo tick (a 32-bit integer)", *l.Tick)}
		}
		if *l.Entity < 0 || *l.Entity >= entity.MaxEntities {
			return nil, &LineError{n, fmt.Sprintf("entity %d: entity indexes run 0…%d", *l.Entity, entity.MaxEntities-1)}
		}
		rd := Read{
			Line: n, Tick: *l.Tick, Command: -1, Message: -1, Entity: int32(*l.Entity),
			Class: in(l.Class), Path: l.Path, Name: in(normalName(*l.Name)), Decoder: in(l.Decoder),
			Offset: -1, Bits: -1, Baseline: l.In == "baseline",
			Value: l.Value,
		}
		if l.Command != nil {
			rd.Command = *l.Command
		}
		if l.Message != nil {
			rd.Message = *l.Message
		}
		if l.BitOffset != nil {
			if *l.BitOffset < 0 {
				return nil, &LineError{n, "bit_offset is negative"}
			}
			rd.Offset = *l.BitOffset
		}
		if l.Bits != nil {
			if *l.Bits < 0 {
				return nil, &LineError{n, "bits is negative"}
			}
			rd.Bits = *l.Bits
		}
		if len(reads) == cap(reads) {
			if reads != nil {
				blocks = append(blocks, reads)
			}
			reads = make([]Read, 0, 4096)
		}
		reads = append(reads, rd)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", n+1, err)
	}
	total := len(reads)
	for _, b := range blocks {
		total += len(b)
	}
	all := make([]Read, 0, total)
	for _, b := range blocks {
		all = append(all, b...)
	}
	return append(all, reads...), nil
}

// BitString is the bits of data from bit start on, n of them, in the order a
// reader takes them ("0110…"); at most max are written, then "…". Bits past
// the data are not written.
func BitString(data []byte, start, n uint, max int) string {
	var b []byte
	for i := uint(0); i < n; i++ {
		if len(b) >= max {
			b = append(b, "…"...)
			break
		}
		bit := start + i
		if bit>>3 >= uint(len(data)) {
			break
		}
		b = append(b, '0'+(data[bit>>3]>>(bit&7))&1)
	}
	return string(b)
}

// normalName writes a field name as dembug does: an array element's index
// as a component of at least four digits. A parser may write m_vec.1 or
// m_vec[1] where dembug (and Valve's own names) write m_vec.0001; the
// reads would otherwise never match.
func normalName(s string) string {
	if !oddElements(s) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); {
		if s[i] != '[' && s[i] != '.' {
			b = append(b, s[i])
			i++
			continue
		}
		j := digitsEnd(s, i+1)
		switch {
		case s[i] == '[' && j > i+1 && j < len(s) && s[j] == ']':
			b = appendIndex(append(b, '.'), s[i+1:j])
			i = j + 1
		case s[i] == '.' && j > i+1 && endsComponent(s, j):
			b = appendIndex(append(b, '.'), s[i+1:j])
			i = j
		default:
			// The digit run goes whole: scanned again from each of its
			// digits, a long one took time in the square of its length.
			b = append(b, s[i:j]...)
			i = j
		}
	}
	return string(b)
}

// oddElements reports whether s writes an element index otherwise than
// with four digits or more: "[", or a component of fewer digits.
func oddElements(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			return true
		case '.':
			j := digitsEnd(s, i+1)
			if j > i+1 && j-i-1 < 4 && endsComponent(s, j) {
				return true
			}
			i = j - 1 // past the digit run, each digit scanned once
		}
	}
	return false
}

// digitsEnd is where the run of digits from i in s ends.
func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// endsComponent reports whether a name component ends at j: the name's
// end, another component, or an index in brackets.
func endsComponent(s string, j int) bool { return j == len(s) || s[j] == '.' || s[j] == '[' }

// appendIndex appends an element index of digits, padded to four.
func appendIndex(b []byte, digits string) []byte {
	for n := len(digits); n < 4; n++ {
		b = append(b, '0')
	}
	return append(b, digits...)
}
