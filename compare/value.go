package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/dembug/dembug/engine/decoder"
)

// SameValue reports whether their value is the one ours is, as a parser
// would compute it: integers and strings exactly, booleans as true/false or
// 1/0, floats to float32 precision (a parser that computes a quantized float
// in float32 arithmetic lands on the float32 nearest ours or the one next to
// it), vectors element by element (as an array, or an object x, y, z, w).
func SameValue(ours decoder.Kind, o, t json.RawMessage) bool {
	if bytes.Equal(o, t) {
		return true
	}
	switch ours {
	case decoder.KindBool:
		ob, ok1 := jsonBool(o)
		tb, ok2 := jsonBool(t)
		return ok1 && ok2 && ob == tb
	case decoder.KindUint, decoder.KindHandle, decoder.KindInt:
		return sameInt(o, t)
	case decoder.KindFloat:
		of, ok1 := jsonFloat(o)
		tf, ok2 := jsonFloat(t)
		return ok1 && ok2 && Float32Equal(of, tf)
	case decoder.KindVector:
		ov, ok1 := jsonVector(o)
		tv, ok2 := jsonVector(t)
		if !ok1 || !ok2 || len(ov) != len(tv) {
			return false
		}
		for i := range ov {
			if !Float32Equal(ov[i], tv[i]) {
				return false
			}
		}
		return true
	case decoder.KindString:
		var os, ts string
		return json.Unmarshal(o, &os) == nil && json.Unmarshal(t, &ts) == nil && os == ts
	}
	return false
}

// Float32Equal reports whether a and b are one float32 value, or two next to
// each other (one unit in the last place apart). NaN equals NaN; an infinity
// equals only itself.
func Float32Equal(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	fa, fb := float32(a), float32(b)
	if fa == fb {
		return true
	}
	if math.IsInf(float64(fa), 0) || math.IsInf(float64(fb), 0) {
		return false
	}
	return ulps(fa, fb) <= 1
}

// ulps is the number of float32 values from a to b.
func ulps(a, b float32) int64 {
	ord := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

func jsonBool(b json.RawMessage) (bool, bool) {
	switch string(b) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

func sameInt(o, t json.RawMessage) bool {
	if oi, err := strconv.ParseInt(string(o), 10, 64); err == nil {
		if ti, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return oi == ti
		}
	}
	if ou, err := strconv.ParseUint(string(o), 10, 64); err == nil {
		if tu, err := strconv.ParseUint(string(t), 10, 64); err == nil {
			return ou == tu
		}
	}
	// "5.0" or "5e0" for 5: a whole number, exactly.
	of, err1 := strconv.ParseFloat(string(o), 64)
	tf, err2 := strconv.ParseFloat(string(t), 64)
	return err1 == nil && err2 == nil && of == tf && of == math.Trunc(of) && math.Abs(of) < 1<<53
}

// jsonFloat reads a number, or the strings "NaN", "+Inf", "-Inf" (as our
// trace writes them) and "Infinity", "-Infinity".
func jsonFloat(b json.RawMessage) (float64, bool) {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return 0, false
		}
		switch s {
		case "NaN", "nan":
			return math.NaN(), true
		case "+Inf", "Inf", "inf", "Infinity", "+Infinity":
			return math.Inf(1), true
		case "-Inf", "-inf", "-Infinity":
			return math.Inf(-1), true
		}
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}

func jsonVector(b json.RawMessage) ([]float64, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, false
	}
	var out []float64
	switch b[0] {
	case '[':
		var els []json.RawMessage
		if json.Unmarshal(b, &els) != nil {
			return nil, false
		}
		for _, e := range els {
			f, ok := jsonFloat(e)
			if !ok {
				return nil, false
			}
			out = append(out, f)
		}
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			return nil, false
		}
		for _, k := range []string{"x", "y", "z", "w"} {
			e, ok := m[k]
			if !ok {
				break
			}
			f, ok := jsonFloat(e)
			if !ok {
				return nil, false
			}
			out = append(out, f)
		}
		if len(out) != len(m) {
			return nil, false
		}
	default:
		return nil, false
	}
	return out, true
}
