package compare

import (
	"strconv"
)

// fastLine reads one trace line without reflection: the flat objects
// `dembug trace` and most parsers write (keys without escapes, numbers,
// plain strings, a path array of integers; value any JSON). It reports false
// for anything else, which encoding/json then reads (and names the error).
func fastLine(b []byte, l *traceLine, nums *[6]int64, name *string, a *arena) bool {
	s := scanner{b: b}
	s.space()
	if !s.eat('{') {
		return false
	}
	s.space()
	if s.eat('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok {
			return false
		}
		s.space()
		if !s.eat(':') {
			return false
		}
		s.space()
		switch string(key) {
		case "tick", "command", "message", "entity", "bit_offset", "bits":
			n, ok := s.int()
			if !ok {
				return false
			}
			switch string(key) {
			case "tick":
				nums[0], l.Tick = n, &nums[0]
			case "command":
				nums[1], l.Command = n, &nums[1]
			case "message":
				nums[2], l.Message = n, &nums[2]
			case "entity":
				nums[3], l.Entity = n, &nums[3]
			case "bit_offset":
				nums[4], l.BitOffset = n, &nums[4]
			case "bits":
				nums[5], l.Bits = n, &nums[5]
			}
		case "name", "class", "decoder", "in":
			v, ok := s.plainString()
			if !ok {
				return false
			}
			switch string(key) {
			case "name":
				*name = a.str(v)
				l.Name = name
			case "class":
				l.Class = a.str(v)
			case "decoder":
				l.Decoder = a.str(v)
			case "in":
				l.In = a.str(v)
			}
		case "path":
			if !s.eat('[') {
				return false
			}
			var p [16]int32
			np := 0
			s.space()
			if !s.eat(']') {
				for {
					s.space()
					n, ok := s.int()
					if !ok || np == len(p) || n != int64(int32(n)) {
						return false
					}
					p[np] = int32(n)
					np++
					s.space()
					if s.eat(']') {
						break
					}
					if !s.eat(',') {
						return false
					}
				}
			}
			l.Path = a.ints(p[:np])
		case "value":
			start := s.i
			if !s.skip(0) {
				return false
			}
			l.Value = a.bytes(s.b[start:s.i])
		default:
			if !s.skip(0) {
				return false
			}
		}
		s.space()
		if s.eat('}') {
			s.space()
			return s.i == len(s.b)
		}
		if !s.eat(',') {
			return false
		}
	}
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\r' || s.b[s.i] == '\n') {
		s.i++
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainString reads a string without escapes or control characters.
func (s *scanner) plainString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return s.b[start : s.i-1], true
		}
		if c == '\\' || c < 0x20 {
			return nil, false
		}
		s.i++
	}
	return nil, false
}

func (s *scanner) int() (int64, bool) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	return n, err == nil
}

// skip passes over one JSON value (strings with escapes too); what it
// passes over is checked again by the caller's use of it.
func (s *scanner) skip(depth int) bool {
	if depth > 64 || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		s.i++
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '\\':
				s.i += 2
				continue
			case '"':
				s.i++
				return true
			}
			if s.b[s.i] < 0x20 {
				return false
			}
			s.i++
		}
		return false
	case c == '[' || c == '{':
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		s.i++
		s.space()
		if s.eat(end) {
			return true
		}
		for {
			s.space()
			if c == '{' {
				if !s.skip(depth + 1) {
					return false
				}
				s.space()
				if !s.eat(':') {
					return false
				}
				s.space()
			}
			if !s.skip(depth + 1) {
				return false
			}
			s.space()
			if s.eat(end) {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		start := s.i
		for s.i < len(s.b) && (s.b[s.i] == '-' || s.b[s.i] == '+' || s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E' || s.b[s.i] >= '0' && s.b[s.i] <= '9') {
			s.i++
		}
		_, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
		return err == nil
	default:
		for _, w := range []string{"true", "false", "null"} {
			if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
				s.i += len(w)
				return true
			}
		}
		return false
	}
}

// arena holds a trace's strings, values and paths in large blocks: a
// whole-file trace has a hundred thousand reads or more.
type arena struct {
	strs  map[string]string
	buf   []byte
	paths []int32
}

func (a *arena) str(b []byte) string {
	if s, ok := a.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	a.strs[s] = s
	return s
}

func (a *arena) bytes(b []byte) []byte {
	if len(a.buf)+len(b) > cap(a.buf) {
		a.buf = make([]byte, 0, max(64<<10, len(b)))
	}
	n := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[n:len(a.buf):len(a.buf)]
}

// ints copies a path into the arena (an empty one stays non-nil: given).
func (a *arena) ints(p []int32) []int32 {
	if a.paths == nil || len(a.paths)+len(p) > cap(a.paths) {
		a.paths = make([]int32, 0, max(16<<10, len(p)))
	}
	n := len(a.paths)
	a.paths = append(a.paths, p...)
	return a.paths[n:len(a.paths):len(a.paths)]
}
