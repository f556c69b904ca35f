package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/sample"
	"github.com/dembug/dembug/views"
)

// toCommand moves the timeline's cursor down to command i.
func toCommand(t *testing.T, hs *harness, i int) {
	t.Helper()
	for range 200 {
		if hs.m.sel.Cmd == i && hs.m.sel.Msg < 0 {
			return
		}
		hs.keys("j")
	}
	t.Fatalf("no command #%d reached: %+v", i, hs.m.sel)
}

// A command's inspector shows its framing: the id varint taken apart (the
// kind, its number in EDemoCommands, the compressed bit 64), the tick and
// size varints with their bytes, where the body starts, and for a packet
// where its packet data starts in the body. The sample's DEM_SendTables is
// the bytes issue 48 read with xxd: 44 ff ff ff ff 0f a9 0c.
func TestCommandFramingInInspector(t *testing.T) {
	hs := newHarness(t, "sample", sample.Replay, 160, 48)
	toCommand(t, hs, 4)
	text := inspectorText(hs)
	for _, want := range []string{
		"Framing · the bytes before the body",
		"command 44 → 0x44 = 4 | 64 compressed: DEM_SendTables, number 4 in EDemoCommands  (byte 488, 1 byte)",
		"tick    ff ff ff ff 0f → varint 4294967295 = 0xffffffff → -1: the signon, before the first tick  (byte 489, 5 bytes)",
		"size    a9 0c → varint 41 + 12×2^7 = 1577 bytes of body in the file  (byte 494, 2 bytes)",
		"body    starts at byte 496 (0x1f0), ends before 2073: snappy-compressed",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("DEM_SendTables' inspector lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "packet  ") {
		t.Errorf("DEM_SendTables has no packet:\n%s", text)
	}
	toCommand(t, hs, 8)
	text = inspectorText(hs)
	for _, want := range []string{
		"command 07 → 0x07 = 7 (bit 64 clear: not compressed): DEM_Packet, number 7 in EDemoCommands  (byte 2432, 1 byte)",
		"tick    00 → varint 0  (byte 2433, 1 byte)",
		"size    d1 01 → varint 81 + 1×2^7 = 209 bytes of body in the file  (byte 2434, 2 bytes)",
		"body    starts at byte 2436 (0x984), ends before 2645",
		"packet  CDemoPacket's data (field 3) at body byte 3: 2 inner messages",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("DEM_Packet's inspector lacks %q:\n%s", want, text)
		}
	}
	// An inner message's inspector is the message's, without the framing.
	hs.keys("l", "j")
	if hs.m.sel.Msg < 0 || strings.Contains(inspectorText(hs), "Framing") {
		t.Errorf("at %+v the inspector shows the command's framing", hs.m.sel)
	}
}

// A packet command's bitstream marks each inner message's type ubitvar and
// size varint in the body, where the packet data starts, the first type
// selected with its size beside it; the inspector lists every header with
// its values and places, as dembug commands places them.
func TestPacketHeadersInBitstream(t *testing.T) {
	hs := newHarness(t, "sample", sample.Replay, 160, 48)
	toCommand(t, hs, 1) // net_Tick (4) 4 B at 0x0.0, svc_ClearAllStringTables (51) 6 B at 0x5.6
	s := hs.screen()
	for _, want := range []string{
		"Bitstream · message #0 net_Tick: type 4, size 4 · 2 headers marked",
		"message 0 · type 0x2.0 +6 bits · size 0x2.6 +1 byte",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	text := inspectorText(hs)
	for _, want := range []string{
		"packet  CDemoPacket's data (field 3) at body byte 2: 2 inner messages",
		"#0      net_Tick: type 4 (ubitvar, 6 bits) at packet bit 0x0.0 (0x2.0 in the bitstream) · size 4 (varint, 1 byte) at 0x0.6 · body at 0x1.6",
		"#1      svc_ClearAllStringTables: type 51 (ubitvar, 1 byte 2 bits) at packet bit 0x5.6 (0x7.6 in the bitstream) · size 6 (varint, 1 byte) at 0x7.0 · body at 0x8.0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("inspector lacks %q:\n%s", want, text)
		}
	}
	// The spans: type, size and body of each message, back to back from
	// the packet's first bit to its end, the body's.
	in, ok := views.HexBitsInput{}, false
	if _, in, ok = hs.m.packetBits(in); !ok || len(in.Spans) != 6 {
		t.Fatalf("packet spans %+v", in.Spans)
	}
	at := uint(2 * 8)
	for i, sp := range in.Spans {
		if sp.Start != at || sp.Field != i/3 {
			t.Fatalf("span %d %+v, want it at %s", i, sp, bitio.Offset(at))
		}
		at = sp.End()
	}
	if at != uint(len(hs.m.wireBody))*8 { // the packet data ends the body
		t.Errorf("the spans end at %s", bitio.Offset(at))
	}
	// A selected wire field outside the packet keeps its own span; an
	// inner message's bitstream is its body's.
	hs.keys("l", "j")
	if _, _, ok := hs.m.packetBits(views.HexBitsInput{}); ok || strings.Contains(hs.screen(), "headers marked") {
		t.Errorf("at %+v the bitstream marks the packet", hs.m.sel)
	}
}
