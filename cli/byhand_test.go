package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/golang/snappy"

	"github.com/dembug/dembug/internal/testreplays"
)

// jsonLines decodes every line of out into a fresh T.
func jsonLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var all []T
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		all = append(all, v)
	}
	return all
}

var quantizedText = regexp.MustCompile(`^quantized float: (\d+) bits, (\S+) … (\S+), flags none`)

// A learner's path, from nothing but what dembug prints and the file's
// bytes: trace --explain names a quantized float's read (command, message,
// bit offset in the entity data, bits, decoder); commands --json says where
// that command's body is, whether it is compressed and where the message's
// entity data starts in the packet; the test takes the packet out of the
// file by hand (snappy, CDemoPacket field 3), reads the bits there and
// computes the value from the decoder's parameters, and it equals dembug's.
// On the way, the update's header (--headers) reads its index delta from
// the same place, and every op trace --ops prints for the entity has, at
// its offset, the code ops --json gives the op and the operand bits trace
// printed; one of them yields the field's path.
func TestOneValueByHandFromWhatDembugPrints(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	if filepath.Base(path) != "auto-20240102-2233.dem" {
		t.Skip("needs auto-20240102-2233.dem")
	}
	type read struct {
		Command, Message, Entity  int
		Path                      []int32
		Name, Decoder, Family, In string
		BitOffset                 uint `json:"bit_offset"`
		Bits                      uint
		Value                     any
		Op, Code, Operand         string
		CodeBits                  uint `json:"code_bits"`
		Parts                     []struct {
			Name      string
			BitOffset uint `json:"bit_offset"`
			Bits      uint
			Value     int
		}
	}
	out, _, err := runDembug("trace", path, "--tick", "100", "--headers", "--explain")
	if err != nil {
		t.Fatal(err)
	}
	var field, header *read
	reads := jsonLines[read](t, out)
	for i := range reads {
		if r := &reads[i]; field == nil && r.Family == "quantized" && quantizedText.MatchString(r.Decoder) {
			field = r
		}
	}
	if field == nil {
		t.Fatal("no quantized float read at tick 100")
	}
	for i := range reads {
		if r := &reads[i]; r.In == "header" && r.Entity == field.Entity && r.Command == field.Command {
			header = r
		}
	}
	cmds := jsonLines[commandJSON](t, mustRun(t, "commands", "--json", path))
	c := cmds[field.Command]
	m := c.Messages[field.Message]
	if m.Name != "svc_PacketEntities" || m.EntityDataBit == nil || c.Tick != 100 {
		t.Fatalf("command %d message %d is %s at tick %d", field.Command, field.Message, m.Name, c.Tick)
	}
	body := data[c.BodyOffset : c.BodyOffset+c.Size]
	if c.Compressed {
		if body, err = snappy.Decode(nil, body); err != nil {
			t.Fatal(err)
		}
	}
	packet, _ := handField(t, body, 3)
	at := func(bit uint) uint { return uint(*m.EntityDataBit) + bit }

	// The value.
	pos := at(field.BitOffset)
	stored := handBits(packet, &pos, field.Bits)
	q := quantizedText.FindStringSubmatch(field.Decoder)
	bits, _ := strconv.Atoi(q[1])
	low, _ := strconv.ParseFloat(q[2], 32)
	high, _ := strconv.ParseFloat(q[3], 32)
	lo, hi := float64(float32(low)), float64(float32(high))
	v := lo + (hi-lo)*float64(stored)/float64(uint64(1)<<bits-1)
	if got, ok := field.Value.(float64); !ok || uint(bits) != field.Bits || math.Abs(got-v) > 1e-9*math.Max(1, math.Abs(v)) {
		t.Fatalf("%s: %d bits at packet bit %d hold %d, which reads %g; dembug printed %v (%s)", field.Name, field.Bits, at(field.BitOffset), stored, v, field.Value, field.Decoder)
	}
	t.Logf("%s of entity %d at tick 100: stored %d at packet bit %d → %g", field.Name, field.Entity, stored, at(field.BitOffset), v)

	// The header's index delta, a ubitvar.
	if header == nil || header.Parts[0].Name != "index delta" {
		t.Fatalf("no header for entity %d", field.Entity)
	}
	p := header.Parts[0]
	pos = at(p.BitOffset)
	delta := handBits(packet, &pos, 6)
	switch delta >> 4 {
	case 1:
		delta = delta&15 | handBits(packet, &pos, 4)<<4
	case 2:
		delta = delta&15 | handBits(packet, &pos, 8)<<4
	case 3:
		delta = delta&15 | handBits(packet, &pos, 28)<<4
	}
	if int(delta) != p.Value || pos-at(p.BitOffset) != p.Bits {
		t.Errorf("index delta: %d in %d bits by hand, dembug %d in %d", delta, pos-at(p.BitOffset), p.Value, p.Bits)
	}

	// The ops: each one's code and operand where trace --ops says.
	codes := map[string]string{}
	for name, o := range opsJSON(t) {
		codes[name] = o.Code
	}
	ops, _, err := runDembug("trace", path, "--tick", "100", "--ops", "--entity", strconv.Itoa(field.Entity))
	if err != nil {
		t.Fatal(err)
	}
	yields := false
	for _, o := range jsonLines[read](t, ops) {
		pos = at(o.BitOffset)
		var code strings.Builder
		for range o.CodeBits {
			code.WriteByte('0' + byte(handBits(packet, &pos, 1)))
		}
		var operand strings.Builder
		for range o.Bits - o.CodeBits {
			operand.WriteByte('0' + byte(handBits(packet, &pos, 1)))
		}
		if code.String() != codes[o.Op] || code.String() != o.Code || operand.String() != o.Operand {
			t.Errorf("%s at %d: bits %s %s, ops has code %s, trace printed %s %s", o.Op, o.BitOffset, code.String(), operand.String(), codes[o.Op], o.Code, o.Operand)
		}
		yields = yields || reflect.DeepEqual(o.Path, field.Path)
	}
	if !yields {
		t.Errorf("no op of entity %d yields %v", field.Entity, field.Path)
	}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := runDembug(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
