// Package digest writes another parser's reading of a replay as lines
// that compare by equality: one per entity the parser updated (Manta) or
// held after a frame (demoinfocs), with a hash of every value the entity
// holds. Two readings of two files are the same when their lines are.
// The tests of the parsers' fix lines (package parserfix) compare a
// parser's lines on a file with a type renamed to its lines on the
// original, as published (the test binary run again) and built from a
// copy of the parser's source with fix lines inserted: in processes of
// their own, since a misread length can end one (out of memory), so the
// lines go through text.
//
// It depends on no parser, so that both readers (interop/manta,
// interop/demoinfocs) and their commands share it.
package digest

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"
)

// Stream is a parser's reading of a file: its lines, and how it ended
// ("" when it read the file to its end).
type Stream struct {
	Lines []string
	Err   string
}

// Entity adds one entity's line: where it is read, and a hash of its
// values by name (see Hash).
func (s *Stream) Entity(tick, index int32, class string, serial int32, op string, values map[string]any) {
	s.Lines = append(s.Lines, fmt.Sprintf("%d %d %s %d %s %016x", tick, index, class, serial, op, Hash(values)))
}

// Line adds a line as it is.
func (s *Stream) Line(format string, args ...any) {
	s.Lines = append(s.Lines, fmt.Sprintf(format, args...))
}

// Write writes the lines, then "end: ok" or "end: ERROR".
func (s Stream) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, l := range s.Lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	end := "ok"
	if s.Err != "" {
		end = strings.ReplaceAll(s.Err, "\n", " ")
	}
	fmt.Fprintf(bw, "end: %s\n", end)
	return bw.Flush()
}

// Read reads what Write wrote.
func Read(r io.Reader) (Stream, error) {
	var s Stream
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	ended := false
	for sc.Scan() {
		l := sc.Text()
		if e, ok := strings.CutPrefix(l, "end: "); ok {
			if e != "ok" {
				s.Err = e
			}
			ended = true
			continue
		}
		s.Lines = append(s.Lines, l)
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	if !ended {
		return s, fmt.Errorf("no end line after %d lines", len(s.Lines))
	}
	return s, nil
}

// Diff says how b differs from a ("" when the same): the first line that
// differs, the line counts and the ends.
func Diff(a, b Stream) string {
	var out []string
	if a.Err != b.Err {
		out = append(out, fmt.Sprintf("ends %q, %q", orOK(a.Err), orOK(b.Err)))
	}
	for i := range min(len(a.Lines), len(b.Lines)) {
		if a.Lines[i] != b.Lines[i] {
			n := 0
			for j := i; j < min(len(a.Lines), len(b.Lines)); j++ {
				if a.Lines[j] != b.Lines[j] {
					n++
				}
			}
			out = append(out, fmt.Sprintf("line %d of %d first differs: %q, %q (%d lines of the common length differ)", i+1, len(a.Lines), a.Lines[i], b.Lines[i], n))
			break
		}
	}
	if len(a.Lines) != len(b.Lines) {
		out = append(out, fmt.Sprintf("%d lines, %d", len(a.Lines), len(b.Lines)))
	}
	return strings.Join(out, "; ")
}

func orOK(e string) string {
	if e == "" {
		return "ok"
	}
	return e
}

// Hash hashes values by name, whatever their order. Integers hash by
// their value, whatever their Go type (a uint64 read as a uint32 with the
// same value is the same value); floats by their bits.
func Hash(values map[string]any) uint64 {
	var sum uint64
	var b []byte
	for name, v := range values {
		h := fnv.New64a()
		b = append(b[:0], name...)
		b = append(b, '=')
		b = Append(b, v)
		h.Write(b)
		sum += h.Sum64()
	}
	return sum
}

// Append appends v's canonical text.
func Append(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "nil"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int8:
		return strconv.AppendInt(b, int64(v), 10)
	case int16:
		return strconv.AppendInt(b, int64(v), 10)
	case int32:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case uint8:
		return strconv.AppendUint(b, uint64(v), 10)
	case uint16:
		return strconv.AppendUint(b, uint64(v), 10)
	case uint32:
		return strconv.AppendUint(b, uint64(v), 10)
	case uint64:
		return strconv.AppendUint(b, v, 10)
	case float32:
		return strconv.AppendUint(append(b, 'f'), uint64(math.Float32bits(v)), 16)
	case float64:
		return strconv.AppendUint(append(b, 'd'), math.Float64bits(v), 16)
	case string:
		return strconv.AppendQuote(append(b, 's'), v)
	case []byte:
		return strconv.AppendQuote(append(b, 'x'), string(v))
	case []float32:
		b = append(b, '[')
		for i, f := range v {
			if i > 0 {
				b = append(b, ' ')
			}
			b = Append(b, f)
		}
		return append(b, ']')
	case []any:
		b = append(b, '(')
		for i, e := range v {
			if i > 0 {
				b = append(b, ' ')
			}
			b = Append(b, e)
		}
		return append(b, ')')
	}
	return fmt.Appendf(b, "%T:%v", v, v)
}
