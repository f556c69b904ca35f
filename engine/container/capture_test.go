package container

import (
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// frame writes one broadcast command: id varint, tick, a zero byte, size,
// body (command 0: no size, no body).
func bcFrame(b []byte, kind Kind, tick uint32, body []byte) []byte {
	b = binary.AppendUvarint(b, uint64(kind))
	b = binary.LittleEndian.AppendUint32(b, tick)
	b = append(b, 0)
	if kind == Stop {
		return b
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	return append(b, body...)
}

func TestCaptureReadsFragmentsInOrder(t *testing.T) {
	start := bcFrame(nil, SignonPacket, 0, []byte{1, 2, 3})
	start = bcFrame(start, SendTables, 0, []byte{0x0a, 0})
	full := bcFrame(nil, Packet, 100, []byte{4})
	delta := bcFrame(nil, Packet, 101, []byte{5, 6})
	delta = bcFrame(delta, Stop, 102, nil)
	data := AssembleCapture([]Fragment{{"0/start.bin", start}, {"7/full.bin", full}, {"7/delta.bin", delta}})
	r, err := NewReader(data)
	if err != nil || !r.IsCapture() {
		t.Fatalf("NewReader: %v", err)
	}
	type got struct {
		kind  Kind
		tick  int32
		file  string
		local int
		body  int
	}
	want := []got{{SignonPacket, 0, "0/start.bin", 0, 3}, {SendTables, 0, "0/start.bin", 13, 2}, {Packet, 100, "7/full.bin", 0, 1},
		{Packet, 101, "7/delta.bin", 0, 2}, {Stop, 102, "7/delta.bin", 12, 0}}
	for i, w := range want {
		if tick, ok := r.PeekTick(); !ok || tick != w.tick {
			t.Errorf("#%d: PeekTick %d %v, want %d", i, tick, ok, w.tick)
		}
		c, err := r.Next()
		if err != nil {
			t.Fatalf("#%d: %v", i, err)
		}
		file, local := r.Place(c.Offset)
		if g := (got{c.Kind, c.Tick, file, local, len(c.Body)}); g != w || !c.Broadcast || c.Index != i {
			t.Errorf("#%d: %+v (index %d), want %+v", i, g, c.Index, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the stop: %v, want EOF", err)
	}
	// Seek back to the full frame and read on from there.
	r2, _ := NewReader(data)
	for i := 0; i < 3; i++ {
		r2.Next()
	}
	c, _ := r2.Next()
	r.Seek(c.Offset, c.Index)
	if c2, err := r.Next(); err != nil || c2.Tick != 101 || c2.Index != 3 {
		t.Fatalf("after Seek: %+v %v", c2, err)
	}
}

func TestCaptureTruncatedFragmentNamesItsFile(t *testing.T) {
	start := bcFrame(nil, SignonPacket, 0, []byte{1, 2, 3})
	cut := bcFrame(nil, Packet, 9, []byte{1, 2, 3, 4})
	data := AssembleCapture([]Fragment{{"0/start.bin", start}, {"3/full.bin", cut[:len(cut)-2]}})
	r, _ := NewReader(data)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "3/full.bin") {
		t.Fatalf("err %v, want a truncation naming 3/full.bin", err)
	}
}

func TestCaptureTableBoundsChecked(t *testing.T) {
	data := AssembleCapture([]Fragment{{"0/start.bin", []byte{1, 2, 3}}})
	for n := len(CaptureMagic); n < len(data)-3; n++ {
		if _, err := NewReader(data[:n]); err == nil {
			t.Fatalf("a table cut at byte %d read", n)
		}
	}
	bad := append([]byte(CaptureMagic), 0xff, 0xff, 0xff, 0xff)
	if _, err := NewReader(bad); err == nil {
		t.Fatal("four billion fragments accepted")
	}
}

// FuzzCapture reads arbitrary fragment bytes as a capture: no panic, the
// walk ends, each command lies inside its fragment, and a body lies inside
// the data (or decompressed within MaxBodySize).
func FuzzCapture(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add(bcFrame(nil, SignonPacket, 0, []byte{1, 2, 3}), bcFrame(bcFrame(nil, Packet, 5, []byte{9}), Stop, 6, nil))
	f.Add(bcFrame(nil, Packet|compressedFlag, 1, []byte{0xff, 0xff, 0x03}), []byte{0x80, 0x80})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		data := AssembleCapture([]Fragment{{"0/start.bin", a}, {"1/full.bin", b}})
		r, err := NewReader(data)
		if err != nil {
			if len(a)+len(b) == 0 {
				return // nothing to read: refused
			}
			t.Fatalf("assembled capture refused: %v", err)
		}
		segs := r.Segments()
		for i := 0; i <= len(data); i++ {
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.Offset < segs[0].Start || ce.Offset > len(data) {
					t.Fatalf("error %v", err)
				}
				return
			}
			name, local := r.Place(c.Offset)
			if name == "" || local < 0 || c.End() > len(data) || len(c.Body) > MaxBodySize {
				t.Fatalf("command %+v at %s %d", c, name, local)
			}
		}
		t.Fatal("the walk did not end")
	})
}

// The end of a broadcast (command 0) that carries tick 0 ends at the last
// tick played: PeekTick and Next say that tick, not 0.
func TestCaptureStopAtTickZeroKeepsTheLastTick(t *testing.T) {
	start := bcFrame(nil, SignonPacket, 0, []byte{1})
	full := bcFrame(nil, Packet, 8860, []byte{4})
	delta := bcFrame(nil, Packet, 8861, []byte{5})
	delta = bcFrame(delta, Stop, 0, nil)
	r, err := NewReader(AssembleCapture([]Fragment{{"0/start.bin", start}, {"7/full.bin", full}, {"7/delta.bin", delta}}))
	if err != nil {
		t.Fatal(err)
	}
	var last Command
	for {
		peek, ok := r.PeekTick()
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ok || peek != c.Tick {
			t.Errorf("command #%d: PeekTick %d %v, Next %d", c.Index, peek, ok, c.Tick)
		}
		last = c
	}
	if last.Kind != Stop || last.Tick != 8861 {
		t.Fatalf("the end: %s at tick %d, want DEM_Stop at tick 8861", last.Kind, last.Tick)
	}
}

// A capture of empty fragments is refused, and so is a command 0 (the end
// of the broadcast) anywhere but at the capture's end: a fragment whose
// first bytes are zeroed reads as one, and the rest of it and every later
// fragment were dropped unseen.
func TestCaptureCorruptEndIsAnError(t *testing.T) {
	if _, err := NewReader(AssembleCapture([]Fragment{{"0/start.bin", nil}, {"3/full.bin", nil}, {"3/delta.bin", nil}})); err == nil ||
		!strings.Contains(err.Error(), "3 fragment files are all empty") {
		t.Errorf("all fragments empty: %v", err)
	}
	start := bcFrame(nil, SignonPacket, 0, []byte{1, 2, 3})
	full := bcFrame(nil, Packet, 9, []byte{1})
	delta := bcFrame(nil, Packet, 10, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	zeroed := append(make([]byte, 12), delta[12:]...)
	for _, c := range []struct {
		frags []Fragment
		want  string
	}{
		{[]Fragment{{"0/start.bin", start}, {"3/full.bin", full}, {"3/delta.bin", zeroed}, {"4/delta.bin", delta}},
			"with 34 bytes after it (the rest of 3/delta.bin and 1 later fragment file)"},
		{[]Fragment{{"0/start.bin", start}, {"3/full.bin", full}, {"3/delta.bin", zeroed}},
			"with 14 bytes after it (the rest of 3/delta.bin and 0 later fragment files)"},
		{[]Fragment{{"0/start.bin", start}, {"3/full.bin", bcFrame(nil, Stop, 0, nil)}, {"3/delta.bin", delta}},
			"with 20 bytes after it (the rest of 3/full.bin and 1 later fragment file)"},
	} {
		r, err := NewReader(AssembleCapture(c.frags))
		if err != nil {
			t.Fatal(err)
		}
		for {
			_, err = r.Next()
			if err != nil {
				break
			}
		}
		if err == io.EOF || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error saying %q", c.frags[len(c.frags)-1].Name, err, c.want)
		}
	}
	// Command 0 as the capture's last bytes is its end.
	r, _ := NewReader(AssembleCapture([]Fragment{{"0/start.bin", start}, {"3/full.bin", full}, {"3/delta.bin", bcFrame(delta, Stop, 11, nil)}}))
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d commands, want 4", n)
	}
}
