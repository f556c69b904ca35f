package cli

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/golang/snappy"

	"github.com/dembug/dembug/internal/testreplays"
)

// handVarint reads a base-128 varint at b[pos:], by hand.
func handVarint(t *testing.T, b []byte, pos int) (uint64, int) {
	t.Helper()
	var v uint64
	for s := 0; pos < len(b); s += 7 {
		x := b[pos]
		pos++
		v |= uint64(x&0x7f) << s
		if x < 0x80 {
			return v, pos
		}
	}
	t.Fatalf("varint runs past the end")
	return 0, 0
}

// handField returns the data of the last length-delimited field num of a
// protobuf message and its byte offset, walking the wire format by hand.
func handField(t *testing.T, b []byte, num uint64) (data []byte, off int) {
	t.Helper()
	off = -1
	for pos := 0; pos < len(b); {
		tag, p := handVarint(t, b, pos)
		switch tag & 7 {
		case 0:
			_, p = handVarint(t, b, p)
		case 1:
			p += 8
		case 5:
			p += 4
		case 2:
			n, q := handVarint(t, b, p)
			if tag>>3 == num {
				data, off = b[q:q+int(n)], q
			}
			p = q + int(n)
		default:
			t.Fatalf("wire type %d", tag&7)
		}
		pos = p
	}
	return data, off
}

// handBits reads n bits at bit pos of b, lowest first.
func handBits(b []byte, pos *uint, n uint) uint64 {
	var v uint64
	for i := uint(0); i < n; i++ {
		bit := *pos + i
		v |= uint64(b[bit>>3]>>(bit&7)&1) << i
	}
	*pos += n
	return v
}

// walkByHand is the test's own walk of a .dem file: the 16-byte header,
// then per command three varints (command | 64 when compressed, tick,
// size) and the body; per packet, its messages as ubitvar type, varint size
// and body, with svc_PacketEntities' field 7 located in its body.
func walkByHand(t *testing.T, data []byte) []commandJSON {
	t.Helper()
	if string(data[:8]) != "PBDEMS2\x00" {
		t.Fatal("no magic")
	}
	var out []commandJSON
	for pos := 16; pos < len(data); {
		c := commandJSON{Index: len(out), Offset: pos, Messages: []innerMsgJSON{}}
		cmd, p := handVarint(t, data, pos)
		tick, p := handVarint(t, data, p)
		size, p := handVarint(t, data, p)
		c.Kind.Number = int32(cmd &^ 64)
		c.Compressed = cmd&64 != 0
		c.Tick = int32(uint32(tick))
		c.Size, c.BodyOffset = int(size), p
		body := data[p : p+int(size)]
		pos = p + int(size)
		if c.Compressed {
			var err error
			if body, err = snappy.Decode(nil, body); err != nil {
				t.Fatalf("command %d: %v", c.Index, err)
			}
		}
		switch c.Kind.Number {
		case 13: // DEM_FullPacket: its packet (2) is a CDemoPacket
			body, _ = handField(t, body, 2)
			fallthrough
		case 7, 8: // DEM_Packet, DEM_SignonPacket: CDemoPacket's data (3)
			pkt, _ := handField(t, body, 3)
			var bit uint
			for uint(len(pkt))*8-bit >= 8 {
				m := innerMsgJSON{BitOffset: bit}
				ty := handBits(pkt, &bit, 6)
				switch ty >> 4 {
				case 1:
					ty = ty&15 | handBits(pkt, &bit, 4)<<4
				case 2:
					ty = ty&15 | handBits(pkt, &bit, 8)<<4
				case 3:
					ty = ty&15 | handBits(pkt, &bit, 28)<<4
				}
				var n uint64
				for s := 0; ; s += 7 {
					x := handBits(pkt, &bit, 8)
					n |= (x & 0x7f) << s
					if x < 0x80 {
						break
					}
				}
				m.Type, m.Size = uint32(ty), int(n)
				if ty == 55 {
					mb := make([]byte, n)
					start := bit
					for i := range mb {
						mb[i] = byte(handBits(pkt, &start, 8))
					}
					if _, off := handField(t, mb, 7); off >= 0 {
						at := int(bit) + 8*off
						m.EntityDataBit = &at
					}
				}
				bit += uint(n) * 8
				c.Messages = append(c.Messages, m)
			}
		}
		out = append(out, c)
	}
	return out
}

// commands --json agrees on every shared replay with the test's own walk
// of the container and of each packet: offsets, kinds and their numbers,
// the compressed flag, ticks, sizes, body offsets, and every inner message's
// type, size and bit offset, with the entity data's; names are the kinds'.
func TestCommandsAgreeWithAWalkByHand(t *testing.T) {
	names := map[int32]string{1: "DEM_FileHeader", 2: "DEM_FileInfo", 3: "DEM_SyncTick", 4: "DEM_SendTables",
		5: "DEM_ClassInfo", 6: "DEM_StringTables", 7: "DEM_Packet", 8: "DEM_SignonPacket", 0: "DEM_Stop", 13: "DEM_FullPacket", 15: "DEM_SpawnGroups"}
	testreplays.EachFile(t, func(path string, data []byte) {
		out, _, err := runDembug("commands", "--json", path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := walkByHand(t, data)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines, %d commands by hand", path, len(lines), len(want))
		}
		entityData := 0
		for i, line := range lines {
			var got commandJSON
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatalf("%s: line %d: %v", path, i, err)
			}
			w := want[i]
			if n, ok := names[w.Kind.Number]; ok && got.Kind.Name != n {
				t.Errorf("%s: command %d is %q, number %d is %s", path, i, got.Kind.Name, w.Kind.Number, n)
			}
			w.Kind.Name = got.Kind.Name
			for j := range got.Messages {
				if j < len(w.Messages) {
					w.Messages[j].Name = got.Messages[j].Name
				}
				if got.Messages[j].Name == "" {
					t.Errorf("%s: command %d message %d has no name", path, i, j)
				}
				if got.Messages[j].EntityDataBit != nil {
					entityData++
				}
			}
			if !reflect.DeepEqual(got, w) {
				g, _ := json.Marshal(got)
				h, _ := json.Marshal(w)
				t.Fatalf("%s: command %d:\n got %s\nwant %s", path, i, g, h)
			}
		}
		if entityData == 0 {
			t.Errorf("%s: no svc_PacketEntities located", path)
		}
		// The header's offsets point at DEM_FileInfo, the last command,
		// and DEM_SpawnGroups; a DEM_Stop comes before them.
		at := map[int]int32{}
		stop := false
		for _, w := range want {
			at[w.Offset] = w.Kind.Number
			stop = stop || w.Kind.Number == 0
		}
		fi, sg := int(binary.LittleEndian.Uint32(data[8:])), int(binary.LittleEndian.Uint32(data[12:]))
		if last := want[len(want)-1]; last.Offset != fi || last.Kind.Number != 2 || !stop || (sg != 0 && at[sg] != 15) {
			t.Errorf("%s: the header names DEM_FileInfo at byte %d and DEM_SpawnGroups at %d; the walk ends on %d at %d, has %d at %d (DEM_Stop seen: %v)",
				path, fi, sg, last.Kind.Number, last.Offset, at[sg], sg, stop)
		}
		// The text form: one line per command, its framing bytes as read.
		text, _, err := runDembug("commands", path)
		if err != nil {
			t.Fatal(err)
		}
		tl := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(tl) != len(want) {
			t.Fatalf("%s: text has %d lines for %d commands", path, len(tl), len(want))
		}
		for i, w := range want {
			var framing []string
			for _, x := range data[w.Offset:w.BodyOffset] {
				framing = append(framing, fmt.Sprintf("%02x", x))
			}
			head := fmt.Sprintf("#%d byte %d [%s] %s (%d)", i, w.Offset, strings.Join(framing, " "), lines2name(t, lines[i]), w.Kind.Number)
			if !strings.HasPrefix(tl[i], head) || !strings.Contains(tl[i], fmt.Sprintf(" tick %d size %d body byte %d", w.Tick, w.Size, w.BodyOffset)) {
				t.Fatalf("%s: text line %d is %q, want it to start %q", path, i, tl[i], head)
			}
		}
	})
}

func lines2name(t *testing.T, line string) string {
	var c commandJSON
	if err := json.Unmarshal([]byte(line), &c); err != nil {
		t.Fatal(err)
	}
	return c.Kind.Name
}

// A file cut inside a command prints the commands before it and fails,
// naming the byte where the broken command starts.
func TestCommandsOfATruncatedFile(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	cut := data[:len(data)/2]
	whole, broken := 0, 16
	for {
		_, p := handVarint(t, cut, broken)
		_, p = handVarint(t, cut, p)
		size, p := handVarint(t, cut, p)
		if p+int(size) > len(cut) {
			break
		}
		broken = p + int(size)
		whole++
	}
	file := filepath.Join(t.TempDir(), "cut.dem")
	if err := os.WriteFile(file, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runDembug("commands", file)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("byte %d:", broken)) || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("error %v, want one at byte %d", err, broken)
	}
	if n := strings.Count(out, "\n"); n != whole {
		t.Fatalf("%d lines before the break, want the %d whole commands", n, whole)
	}
}
