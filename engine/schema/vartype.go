package schema

import (
	"strconv"
	"strings"
)

// VarType is a parsed var_type such as "CNetworkUtlVectorBase< CHandle< CBaseEntity > >",
// "uint8[18]" or "CBodyComponent*".
type VarType struct {
	Base      string   // "CNetworkUtlVectorBase", "uint8", "CBodyComponent"
	Generic   *VarType // the template argument, if any
	Pointer   bool     // ends in '*'
	Count     int      // fixed array length, 0 when not an array
	CountName string   // the array bound as written, e.g. "MAX_ITEM_STOCKS"
}

// Named array bounds that Valve writes as constants rather than numbers.
var namedCounts = map[string]int{
	"MAX_ITEM_STOCKS":             8,
	"MAX_ABILITY_DRAFT_ABILITIES": 48,
}

// unknownCount is used for an array bound we cannot read; large enough that
// real indexes fit, small enough to bound allocations.
const unknownCount = 1024

// MaxArrayCount bounds a fixed array's length (real schemas go up to 512):
// a larger bound, which only corrupt data writes, is cut to this, as entity
// state allocates by it.
const MaxArrayCount = 4096

// maxGenericDepth bounds template nesting (real types nest two levels); the
// text inside a deeper one stays unparsed in Base.
const maxGenericDepth = 8

// ParseVarType parses a var_type string. It never fails: malformed input
// yields its best reading, with the whole string as Base.
func ParseVarType(s string) VarType { return parseVarType(s, 0) }

func parseVarType(s string, depth int) VarType {
	s = strings.TrimSpace(s)
	var t VarType
	// Array bound: trailing "[N]".
	if strings.HasSuffix(s, "]") {
		if i := strings.LastIndexByte(s, '['); i > 0 {
			t.CountName = strings.TrimSpace(s[i+1 : len(s)-1])
			s = strings.TrimSpace(s[:i])
			if n, err := strconv.Atoi(t.CountName); err == nil && n >= 0 {
				t.Count = min(n, MaxArrayCount)
			} else if n, ok := namedCounts[t.CountName]; ok {
				t.Count = n
			} else {
				t.Count = unknownCount
			}
		}
	}
	if strings.HasSuffix(s, "*") {
		t.Pointer = true
		s = strings.TrimSpace(s[:len(s)-1])
	}
	if i := strings.IndexByte(s, '<'); i > 0 && strings.HasSuffix(s, ">") && depth < maxGenericDepth {
		g := parseVarType(s[i+1:len(s)-1], depth+1)
		t.Generic = &g
		s = strings.TrimSpace(s[:i])
	}
	t.Base = s
	return t
}

// String rebuilds a canonical spelling.
func (t VarType) String() string {
	s := t.Base
	if t.Generic != nil {
		s += "< " + t.Generic.String() + " >"
	}
	if t.Pointer {
		s += "*"
	}
	if t.CountName != "" {
		s += "[" + t.CountName + "]"
	}
	return s
}

// hasBase reports whether name is the type's base or its template
// argument's: the names an alias of the type matches.
func (t VarType) hasBase(name string) bool {
	return t.Base == name || t.Generic != nil && t.Generic.Base == name
}
