package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/internal/testreplays"
)

func opsJSON(t *testing.T) map[string]opJSON {
	t.Helper()
	out, _, err := runDembug("ops", "--json")
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]opJSON{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var o opJSON
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if _, dup := ops[o.Name]; dup {
			t.Fatalf("%s twice", o.Name)
		}
		ops[o.Name] = o
	}
	return ops
}

// ops --json has every op once, with a weight, an operand and an effect,
// and codes no one of which starts another; the text form a row for each.
func TestOpsListsEveryOp(t *testing.T) {
	ops := opsJSON(t)
	if len(ops) != int(fieldpath.NumOps) {
		t.Fatalf("%d ops, want %d", len(ops), fieldpath.NumOps)
	}
	for op := fieldpath.Op(0); op < fieldpath.NumOps; op++ {
		o, ok := ops[op.String()]
		if !ok || o.Number != int(op) || o.Operand == "" || o.Effect == "" || o.Weight != op.Weight() {
			t.Errorf("%s: %+v", op, o)
		}
	}
	for a, oa := range ops {
		for b, ob := range ops {
			if a != b && strings.HasPrefix(ob.Code, oa.Code) {
				t.Errorf("%s's code %s starts %s's %s", a, oa.Code, b, ob.Code)
			}
		}
		if strings.Trim(oa.Code, "01") != "" || oa.Code == "" {
			t.Errorf("%s's code %q", a, oa.Code)
		}
	}
	text, _, err := runDembug("ops")
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range ops {
		if !strings.Contains(text, " "+name+" ") || !strings.Contains(text, " "+o.Code+" ") {
			t.Errorf("the text has no row for %s (%s)", name, o.Code)
		}
	}
	if !strings.Contains(text, "Ties:") || !strings.Contains(text, "ubitvar:") || !strings.Contains(text, "fpvar:") {
		t.Error("the text says nothing of the tree or the operand forms")
	}
}

// Every op and code trace --ops prints on the shared replays (all ticks)
// is in ops --json, under the same name with the same code; the finish op
// and the frequent ones occur.
func TestOpsHoldsWhatTraceOpsPrints(t *testing.T) {
	ops := opsJSON(t)
	seen := map[string]int{}
	checked := 0
	testreplays.EachFile(t, func(path string, _ []byte) {
		out, _, err := runDembug("trace", "--ops", "--all-ticks", path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var r struct {
				Op, Code, Operand string
				CodeBits          int     `json:"code_bits"`
				OperandBits       int     `json:"operand_bits"`
				Values            []int32 `json:"operand_values"`
				Before            []int32 `json:"path_before"`
				Path              []int32
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			o, ok := ops[r.Op]
			if !ok || o.Code != r.Code || len(o.Code) != r.CodeBits {
				t.Fatalf("%s: trace --ops prints %s %s (%d bits); ops has %+v", path, r.Op, r.Code, r.CodeBits, o)
			}
			seen[r.Op]++
			if (r.OperandBits > 0) != (len(r.Values) > 0) {
				t.Fatalf("%s: %s with %d operand bits has operand values %v", path, r.Op, r.OperandBits, r.Values)
			}
			if want := pathByValues(r.Op, r.Before, r.Values); want != nil && !reflect.DeepEqual(want, r.Path) {
				t.Fatalf("%s: %s %v on %v: ops says %v, trace printed %v", path, r.Op, r.Values, r.Before, want, r.Path)
			}
			checked += len(r.Values)
		}
	})
	for _, must := range []string{"PlusOne", "PlusTwo", "PlusN", "FieldPathEncodeFinish", "PushOneLeftDeltaNRightNonZeroPack6Bits", "PopAllButOnePlusOne"} {
		if seen[must] == 0 {
			t.Errorf("trace --ops never printed %s on the shared replays", must)
		}
	}
	t.Logf("%d of %d ops occur on the shared replays; %d operand values checked against the paths", len(seen), len(ops), checked)
	if checked == 0 {
		t.Error("no operand value checked")
	}
}

// pathByValues applies, by hand, the effect ops gives an op with operand
// values, for the ops whose operands are fixed in number; nil for the rest.
func pathByValues(op string, before []int32, v []int32) []int32 {
	p := append([]int32(nil), before...)
	last := len(p) - 1
	switch op {
	case "PlusN":
		p[last] += v[0] + 5
	case "PushOneLeftDeltaZeroRightNonZero":
		p = append(p, v[0])
	case "PushOneLeftDeltaOneRightNonZero":
		p[last]++
		p = append(p, v[0])
	case "PushOneLeftDeltaNRightZero":
		p[last] += v[0]
		p = append(p, 0)
	case "PushOneLeftDeltaNRightNonZero", "PushOneLeftDeltaNRightNonZeroPack6Bits", "PushOneLeftDeltaNRightNonZeroPack8Bits":
		p[last] += v[0] + 2
		p = append(p, v[1]+1)
	case "PopAllButOnePlusN", "PopAllButOnePlusNPack3Bits", "PopAllButOnePlusNPack6Bits":
		p = []int32{p[0] + v[0] + 1}
	case "PopOnePlusN":
		p = p[:last]
		p[last-1] += v[0] + 1
	default:
		return nil
	}
	return p
}
