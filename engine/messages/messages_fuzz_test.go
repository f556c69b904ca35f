package messages

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/wiretree"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/sample"
)

// The message kinds FuzzParse can decode, by selector.
const (
	selFileHeader = iota
	selFileInfo
	selClassInfo
	selStringTables
	selFullPacket
	selPacketData
	selSendTables
	selServerInfo
	selNetTick
	selCreateStringTable
	selUpdateStringTable
	selPacketEntities
	numSel
)

// realBodies walks the built-in sample and every shared replay (when
// present) and returns, per selector, a few real message bodies, plus a few
// packets' inner-message streams.
func realBodies() (bodies [numSel][][]byte, packets [][]byte) {
	files := [][]byte{sample.Replay}
	if dir := testreplays.Dir(); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.dem"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
			}
		}
	}
	const perFile = 3
	for _, data := range files {
		var n [numSel]int
		add := func(sel int, b []byte) {
			if n[sel] < perFile && len(b) <= 256<<10 {
				n[sel]++
				bodies[sel] = append(bodies[sel], bytes.Clone(b))
			}
		}
		npk := 0
		cr, err := container.NewReader(data)
		if err != nil {
			continue
		}
		for {
			c, err := cr.Next()
			if err != nil {
				break
			}
			switch c.Kind {
			case container.FileHeader:
				add(selFileHeader, c.Body)
			case container.FileInfo:
				add(selFileInfo, c.Body)
			case container.ClassInfo:
				add(selClassInfo, c.Body)
			case container.StringTables:
				add(selStringTables, c.Body)
			case container.FullPacket:
				add(selFullPacket, c.Body)
			case container.SendTables:
				add(selSendTables, c.Body)
			case container.Packet, container.SignonPacket:
				add(selPacketData, c.Body)
				pd, err := PacketData(c.Body)
				if err != nil {
					continue
				}
				if npk < perFile && len(pd) <= 8<<10 {
					npk++
					packets = append(packets, bytes.Clone(pd))
				}
				inner, _, _ := SplitInner(pd, nil, nil)
				for _, m := range inner {
					switch m.Type {
					case SvcServerInfo:
						add(selServerInfo, m.Body)
					case NetTick:
						add(selNetTick, m.Body)
					case SvcCreateStringTable:
						add(selCreateStringTable, m.Body)
					case SvcUpdateStringTable:
						add(selUpdateStringTable, m.Body)
					case SvcPacketEntities:
						add(selPacketEntities, m.Body)
					}
				}
			}
		}
	}
	return bodies, packets
}

// FuzzSplitInner splits arbitrary bits into inner messages. Whatever the
// input: no panic; messages follow each other without gaps, each body lies
// inside the data and holds exactly the bits at its offset; an error is an
// *InnerError numbering the message after the last one returned, at a bit
// offset inside the data.
func FuzzSplitInner(f *testing.F) {
	_, packets := realBodies()
	for _, p := range packets {
		f.Add(p)
	}
	var w bitio.Writer
	w.UBitVar(SvcPacketEntities)
	w.VarUint32(3)
	w.RawBytes([]byte{1, 2, 3})
	w.Bool(true) // the next header starts unaligned
	w.UBitVar(NetTick)
	w.VarUint32(2)
	w.RawBytes([]byte{8, 1})
	f.Add(w.Bytes())
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, scratch, err := SplitInner(data, nil, nil)
		bits := uint(len(data)) * 8
		next := uint(0)
		for i, m := range out {
			if m.Index != i || m.Bit != next || m.BodyBit <= m.Bit || m.Size != len(m.Body) || m.BodyBit+uint(m.Size)*8 > bits {
				t.Fatalf("message %d framed as %+v (expected at bit %d of %d)", i, m, next, bits)
			}
			r := bitio.NewReader(data)
			r.Seek(m.BodyBit)
			if want := r.AppendBits(nil, uint(m.Size)*8); !bytes.Equal(want, m.Body) {
				t.Fatalf("message %d body differs from its bits", i)
			}
			next = m.BodyBit + uint(m.Size)*8
		}
		if len(scratch) > len(data) {
			t.Fatalf("scratch grew to %d for %d bytes", len(scratch), len(data))
		}
		if err != nil {
			var ie *InnerError
			if !errors.As(err, &ie) || ie.Index != len(out) || ie.Bit != next || ie.Bit >= bits {
				t.Fatalf("error %v after %d messages ending at bit %d", err, len(out), next)
			}
		} else if bits-next >= 8 {
			t.Fatalf("stopped at bit %d of %d without an error", next, bits)
		}
	})
}

// FuzzParse runs the Parse function picked by sel on arbitrary bytes,
// seeded with real bodies of each kind. Whatever the input: no panic, what
// is returned aliases or copies only the input (lengths bounded by it), and
// an error wraps a *wiretree.ParseError whose byte offset lies inside the
// body (or is the length-prefix check of DEM_SendTables).
func FuzzParse(f *testing.F) {
	bodies, _ := realBodies()
	for sel, bs := range bodies {
		for _, b := range bs {
			f.Add(uint8(sel), b)
		}
	}
	f.Add(uint8(selClassInfo), []byte{0x0a, 0x80, 0x80, 0x80, 0x80, 0x08})
	f.Add(uint8(selSendTables), []byte{0x0a, 0x03, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, sel uint8, b []byte) {
		var err error
		bound := func(what string, n int) {
			if n > len(b) {
				t.Fatalf("%s: %d from %d bytes", what, n, len(b))
			}
		}
		within := func(what string, d []byte) {
			if len(d) > 0 && !inside(b, d) {
				t.Fatalf("%s does not alias the input", what)
			}
		}
		switch sel % numSel {
		case selFileHeader:
			_, err = ParseFileHeader(b)
		case selFileInfo:
			_, err = ParseFileInfo(b)
		case selClassInfo:
			var cs []Class
			cs, err = ParseClassInfo(b)
			bound("classes", 2*len(cs))
		case selStringTables:
			var ts []SnapshotTable
			ts, err = ParseStringTables(b)
			items := 0
			for _, tb := range ts {
				items += len(tb.Items)
				for _, it := range tb.Items {
					within("item data", it.Data)
				}
			}
			bound("tables", 2*len(ts))
			bound("items", 2*items)
			// Picking one table finds the same items, and the same
			// malformation, as decoding them all.
			name := "instancebaseline"
			if len(ts) > 0 {
				name = ts[0].Name
			}
			one, found, err1 := ParseStringTable(b, name)
			if (err == nil) != (err1 == nil) {
				t.Fatalf("all tables: %v; table %q alone: %v", err, name, err1)
			}
			if err == nil {
				var want []SnapshotItem
				for _, tb := range ts {
					if tb.Name == name {
						want = append(want, tb.Items...)
					}
				}
				if found != (len(ts) > 0) || len(one.Items) != len(want) {
					t.Fatalf("table %q alone: found %v, %d items; all tables have %d", name, found, len(one.Items), len(want))
				}
				for i := range want {
					if one.Items[i].Key != want[i].Key || string(one.Items[i].Data) != string(want[i].Data) {
						t.Fatalf("table %q item %d differs", name, i)
					}
				}
			}
		case selFullPacket:
			var fp FullPacket
			fp, err = ParseFullPacket(b)
			within("string tables", fp.StringTables)
			within("packet", fp.Packet)
		case selPacketData:
			var d []byte
			d, err = PacketData(b)
			within("packet data", d)
		case selSendTables:
			var d []byte
			d, err = SendTablesData(b)
			within("serializer", d)
			if err != nil && !errors.As(err, new(*wiretree.ParseError)) {
				return // the length-prefix check: no offset to give
			}
		case selServerInfo:
			_, err = ParseServerInfo(b)
		case selNetTick:
			_, err = ParseNetTick(b)
		case selCreateStringTable:
			var m CreateStringTable
			m, err = ParseCreateStringTable(b)
			within("string data", m.StringData)
		case selUpdateStringTable:
			var m UpdateStringTable
			m, err = ParseUpdateStringTable(b)
			within("string data", m.StringData)
		case selPacketEntities:
			var m PacketEntities
			m, err = ParsePacketEntities(b)
			within("entity data", m.EntityData)
		}
		if err == nil {
			return
		}
		var pe *wiretree.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("selector %d: error %T carries no offset: %v", sel%numSel, err, err)
		}
		if pe.Offset < 0 || pe.Offset >= len(b) {
			t.Fatalf("selector %d: error at offset %d of %d bytes: %v", sel%numSel, pe.Offset, len(b), err)
		}
	})
}

// inside reports whether d is a sub-slice of b.
func inside(b, d []byte) bool {
	if len(b) == 0 || len(d) == 0 {
		return len(d) == 0
	}
	lo, p := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&d[0]))
	return p >= lo && p+uintptr(len(d)) <= lo+uintptr(len(b))
}
