package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// trace --ops writes each update's field-path ops: one per field read (the
// field's path after it) and the finish op, their bits back to back, the
// last ending where the first value starts.
func TestTraceOps(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	var ops, reads bytes.Buffer
	if err := TraceWith(&ops, data, 100, -1, TraceOptions{Ops: true}); err != nil {
		t.Fatal(err)
	}
	if err := TraceWith(&reads, data, 100, -1, TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	type op struct {
		Entity      int
		Message     int
		Op, Code    string
		BitOffset   uint `json:"bit_offset"`
		Bits        uint
		CodeBits    uint `json:"code_bits"`
		OperandBits uint `json:"operand_bits"`
		Operand     string
		PathBefore  []int32 `json:"path_before"`
		Path        []int32
	}
	type read struct {
		Entity    int
		Message   int
		Path      []int32
		BitOffset uint `json:"bit_offset"`
	}
	var rs []read
	for _, l := range strings.Split(strings.TrimSpace(reads.String()), "\n") {
		var r read
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	var prev *op
	ri, finishes := 0, 0
	for i, l := range strings.Split(strings.TrimSpace(ops.String()), "\n") {
		var o op
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if len(o.Code) != int(o.CodeBits) || o.CodeBits+o.OperandBits != o.Bits || len(o.Operand) != int(min(o.OperandBits, 64)) {
			t.Fatalf("line %d: code %q (%d bits), operand %q (%d bits), %d bits in all", i, o.Code, o.CodeBits, o.Operand, o.OperandBits, o.Bits)
		}
		if prev != nil && prev.Path != nil {
			// Within an update: back to back, each from the path before.
			if prev.BitOffset+prev.Bits != o.BitOffset || fmt.Sprint(prev.Path) != fmt.Sprint(o.PathBefore) {
				t.Fatalf("line %d: %s at %d after %s at %d+%d (path %v → before %v)", i, o.Op, o.BitOffset, prev.Op, prev.BitOffset, prev.Bits, prev.Path, o.PathBefore)
			}
		} else if fmt.Sprint(o.PathBefore) != "[-1]" {
			t.Fatalf("line %d: an update's first op starts from %v", i, o.PathBefore)
		}
		if o.Path == nil {
			finishes++
			if o.Op != "FieldPathEncodeFinish" {
				t.Fatalf("line %d: %s has no path", i, o.Op)
			}
			// The values start right after the finish op.
			if ri < len(rs) && rs[ri].Entity == o.Entity && rs[ri].Message == o.Message && rs[ri].BitOffset < o.BitOffset+o.Bits {
				t.Fatalf("line %d: a value at %d before the paths end at %d", i, rs[ri].BitOffset, o.BitOffset+o.Bits)
			}
			for ri < len(rs) && rs[ri].Entity == o.Entity && rs[ri].Message == o.Message {
				ri++
			}
		} else {
			// The op's path is the next read's path.
			found := false
			for j := ri; j < len(rs) && rs[j].Entity == o.Entity && rs[j].Message == o.Message; j++ {
				if fmt.Sprint(rs[j].Path) == fmt.Sprint(o.Path) {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("line %d: no read of path %v for entity %d", i, o.Path, o.Entity)
			}
		}
		prev = &o
	}
	if finishes == 0 || ri != len(rs) {
		t.Fatalf("%d updates' ops, %d of %d reads covered", finishes, ri, len(rs))
	}
}
