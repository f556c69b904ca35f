package interop

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Snapshot is another parser's entity table at one tick, by index.
type Snapshot map[int32]SnapEntity

// SnapEntity is one entity as another parser holds it: values by the
// parser's own field names, as it gives them.
type SnapEntity struct {
	Class  string
	Serial uint32
	Values map[string]any
}

// CompareSnapshots holds a parser's reading of a cut (cut) to its reading
// of the original at the same tick (orig): the same entities, classes,
// serials and values, floats bit for bit. Elements past a variable array's
// length, held in the original only, are left out: after a shrink parsers
// keep the old elements, which a cut's full frame never writes. It returns
// the values compared and the first differences.
func CompareSnapshots(orig, cut Snapshot) (values int, diffs []string) {
	say := func(format string, args ...any) {
		if len(diffs) < 12 {
			diffs = append(diffs, fmt.Sprintf(format, args...))
		}
	}
	if orig == nil || cut == nil {
		return 0, []string{fmt.Sprintf("no entity table taken (original %v, cut %v)", orig != nil, cut != nil)}
	}
	for idx, o := range orig {
		c, ok := cut[idx]
		if !ok {
			say("entity %d %s is in the original, not in the cut", idx, o.Class)
			continue
		}
		if c.Class != o.Class || c.Serial != o.Serial {
			say("entity %d: cut %s serial %d, original %s serial %d", idx, c.Class, c.Serial, o.Class, o.Serial)
			continue
		}
		for name, ov := range o.Values {
			cv, ok := c.Values[name]
			if !ok {
				if !pastLength(o.Values, name) {
					say("entity %d %s: %s = %v in the original, absent in the cut", idx, o.Class, name, ov)
				}
				continue
			}
			if !sameValue(ov, cv) {
				say("entity %d %s %s: cut %v (%T), original %v (%T)", idx, o.Class, name, cv, cv, ov, ov)
			}
			values++
		}
		for name, cv := range c.Values {
			if _, ok := o.Values[name]; !ok {
				say("entity %d %s: %s = %v in the cut, absent in the original", idx, o.Class, name, cv)
			}
		}
	}
	for idx, c := range cut {
		if _, ok := orig[idx]; !ok {
			say("entity %d %s is in the cut, not in the original", idx, c.Class)
		}
	}
	return values, diffs
}

// pastLength reports whether name is an element at or past the length of
// a variable array, which parsers hold under the array's own name.
func pastLength(values map[string]any, name string) bool {
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		k, err := strconv.Atoi(parts[i])
		if err != nil {
			continue
		}
		var length uint64
		switch v := values[strings.Join(parts[:i], ".")].(type) {
		case uint32:
			length = uint64(v)
		case uint64:
			length = v
		case int32:
			length = uint64(v)
		default:
			continue
		}
		if uint64(k) >= length {
			return true
		}
	}
	return false
}

// sameValue compares two values one parser read, floats by their bits.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case float32:
		b, ok := b.(float32)
		return ok && math.Float32bits(a) == math.Float32bits(b)
	case []float32:
		b, ok := b.([]float32)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
