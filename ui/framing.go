package ui

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// hexBytes spells bytes as xxd does: "44 ff ff ff ff 0f".
func hexBytes(b []byte) string {
	var s strings.Builder
	for i, x := range b {
		if i > 0 {
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%02x", x)
	}
	return s.String()
}

// varintSum takes a varint apart: each byte's low 7 bits, least
// significant group first ("31 + 13×2^7 + 5×2^14").
func varintSum(b []byte) string {
	var terms []string
	for i, x := range b {
		g := x & 0x7f
		switch {
		case i == 0:
			terms = append(terms, fmt.Sprint(g))
		case g != 0:
			terms = append(terms, fmt.Sprintf("%d×2^%d", g, 7*i))
		}
	}
	return strings.Join(terms, " + ")
}

// framingSection shows the bytes before a command's body: its id varint
// (the kind, its number in EDemoCommands, and the compressed bit 64), its
// tick and size, each with its bytes, and where the body starts; for a
// packet, where its packet data starts in the body (derive read it).
func (m *Model) framingSection(c *session.Command) views.InspectorSection {
	f := m.file.CommandFraming(c)
	var l []views.InspectorLine
	for _, p := range f.Parts {
		enc := "varint"
		if !p.Varint {
			enc = fmt.Sprintf("%d-byte little-endian", p.Len)
		}
		num := fmt.Sprintf("%s %d", enc, p.Value)
		if p.Varint && len(p.Bytes) > 1 && uint32(p.Value) != 0xffffffff {
			num = fmt.Sprintf("%s %s = %d", enc, varintSum(p.Bytes), p.Value)
		}
		var text string
		switch p.Name {
		case "command":
			kind, comp := session.CommandKind(p.Value)
			text = fmt.Sprintf("0x%02x = %d", p.Value, kind)
			if comp {
				text += " | 64 compressed"
			} else {
				text += " (bit 64 clear: not compressed)"
			}
			text += fmt.Sprintf(": %s, number %d in EDemoCommands", kind, kind)
		case "tick":
			text = num
			if uint32(p.Value) == 0xffffffff {
				text += " = 0xffffffff → -1: the signon, before the first tick"
			}
		case "pad":
			text = "a zero byte"
		case "size":
			text = num + " bytes of body in the file"
		}
		text = fmt.Sprintf("%s → %s  (byte %d, %s)", hexBytes(p.Bytes), text, p.Offset, views.Count(p.Len, "byte"))
		l = append(l, views.InspectorLine{Label: p.Name, Text: text})
	}
	body := fmt.Sprintf("starts at byte %d (0x%x), ends before %d", f.BodyOffset, f.BodyOffset, f.BodyOffset+int(c.Size))
	if c.Compressed {
		body += ": snappy-compressed, decompressed before it is read"
	}
	l = append(l, views.InspectorLine{Label: "body", Text: body})
	if c.Kind.HasPackets() && m.cache.framingKey.is(c.Index) {
		pk := m.cache.packet
		switch {
		case pk.Start >= 0:
			where := "CDemoPacket's data (field 3)"
			switch {
			case f.Broadcast:
				where = "the body itself (a broadcast's packet)"
			case c.Kind.String() == "DEM_FullPacket":
				where = "the data (field 3) of its packet (field 2)"
			}
			l = append(l, views.InspectorLine{Label: "packet", Text: fmt.Sprintf("%s at body byte %d: %s, each a ubitvar type, a varint size and the body (marked in the bitstream)", where, pk.Start, views.Count(len(pk.Headers), "inner message"))})
			l = append(l, m.headerLines(c, pk)...)
		case m.cache.packetErr != "":
			l = append(l, views.InspectorLine{Label: "packet", Text: m.cache.packetErr, Style: views.LineError})
		}
	}
	return views.InspectorSection{Title: "Framing · the bytes before the body", Lines: l}
}

// deriveFraming reads where the selected packet command's packet data and
// inner messages' headers stand, when the selection moved to another
// command (derive): the inspector and the bitstream show them.
func (m *Model) deriveFraming() {
	if m.sel.IsEnd() || m.sel.Cmd < 0 || m.sel.Upd >= 0 {
		return
	}
	c := m.ix.Cmd(m.sel.Cmd)
	if c == nil || !c.Kind.HasPackets() || m.cache.framingKey.is(c.Index) {
		return
	}
	m.cache.framingKey.set(c.Index)
	m.cache.packet, m.cache.packetErr = session.PacketLayout{Start: -1}, ""
	pk, err := m.file.PacketLayoutOf(c)
	m.cache.packet = pk
	if err != nil {
		m.cache.packetErr = err.Error()
	}
}

// packetWords name a packet's pieces in the bitstream's summary: the n-th
// inner message's type ubitvar, size varint and body.
var packetWords = views.SpanWords{Piece: "message", Kinds: [3]string{"type", "size", "body"}}

// packetBits is the bitstream of a selected packet command's body with its
// inner messages marked: each message's type ubitvar and size varint (the
// header bits before its body) and its body, the first message's type
// selected, its size beside it. in is the body as the wire tree shows it,
// with the selected wire field's span; a field outside the packet data (a
// full packet's string tables) keeps that. false when there is no packet
// to mark.
func (m *Model) packetBits(in views.HexBitsInput) (string, views.HexBitsInput, bool) {
	c := m.ix.Cmd(m.sel.Cmd)
	if c == nil || m.sel.Msg >= 0 || !m.cache.framingKey.is(m.sel.Cmd) || m.cache.packet.Start < 0 || len(m.cache.packet.Headers) == 0 {
		return "", in, false
	}
	pk := m.cache.packet
	base := uint(pk.Start) * 8
	if len(in.Spans) > 0 {
		if s := in.Spans[0]; base < s.Start || base >= s.End() {
			return "", in, false
		}
	}
	in.Spans, in.Selected, in.Words = nil, 0, &packetWords
	for _, h := range pk.Headers {
		in.Spans = append(in.Spans,
			views.BitSpan(base+h.Bit, h.TypeBits, views.SpanHeader, h.Index),
			views.BitSpan(base+h.SizeBit, h.SizeBits, views.SpanPath, h.Index),
			views.BitSpan(base+h.BodyBit, uint(h.Size)*8, views.SpanValue, h.Index))
	}
	h := pk.Headers[0]
	title := fmt.Sprintf("Bitstream · message #0 %s: type %d, size %d · %s marked", m.msgName(c, 0, h.Type), h.Type, h.Size, views.Count(len(pk.Headers), "header"))
	return title, in, true
}

// msgName names inner message i of c as the index does.
func (m *Model) msgName(c *session.Command, i int, typ uint32) string {
	if i < len(c.Msgs()) && c.Msgs()[i].Type == typ {
		return c.Msgs()[i].Name
	}
	return fmt.Sprintf("type %d", typ)
}

// headerLines lists a packet's inner messages' headers with their values:
// the type ubitvar taken apart, the size varint, and where each stands in
// the packet data (as dembug commands prints it; the first also in the
// command's body, which the bitstream shows).
func (m *Model) headerLines(c *session.Command, pk session.PacketLayout) []views.InspectorLine {
	const maxShown = 64
	var l []views.InspectorLine
	base := uint(pk.Start) * 8
	for i, h := range pk.Headers {
		if i == maxShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more", len(pk.Headers)-maxShown), Style: views.LineDim})
			break
		}
		l = append(l, views.InspectorLine{Label: fmt.Sprintf("#%d", h.Index), Text: fmt.Sprintf("%s: type %d (ubitvar, %s) at packet bit %s (%s in the bitstream) · size %d (varint, %s) at %s · body at %s",
			m.msgName(c, i, h.Type), h.Type, views.Size(h.TypeBits), views.Offset(h.Bit), views.Offset(base+h.Bit), h.Size, views.Size(h.SizeBits), views.Offset(h.SizeBit), views.Offset(h.BodyBit))})
	}
	return l
}
