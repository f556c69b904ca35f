package container

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/sample"
)

// seedPrefix is how much of each shared replay seeds the fuzzers: the
// header, the signon and some packets, small enough to mutate quickly.
const seedPrefix = 64 << 10

// addReplaySeeds adds the built-in sample and the start of every shared
// replay (when the folder is present) as seeds.
func addReplaySeeds(f *testing.F) {
	f.Add(sample.Replay)
	dir := testreplays.Dir()
	if dir == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.dem"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f.Add(data[:min(len(data), seedPrefix)])
	}
}

// FuzzReader walks every command of arbitrary bytes. Whatever the input:
// no panic, the walk ends (each command moves forward, or an error stops
// it), commands tile the file from the header on, every body lies inside
// the file or (decompressed) within MaxBodySize and the snappy expansion
// bound, and every error is a *Error naming a byte offset inside the file
// and the command index.
func FuzzReader(f *testing.F) {
	addReplaySeeds(f)
	f.Add([]byte(Magic + "\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(append([]byte(Magic+"\x00\x00\x00\x00\x00\x00\x00\x00"), 0x47, 0x01, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f))
	f.Add(append([]byte(Magic+"\x00\x00\x00\x00\x00\x00\x00\x00"), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80))
	f.Fuzz(func(t *testing.T, data []byte) {
		if IsCapture(data) {
			return // FuzzCapture's
		}
		r, err := NewReader(data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Command != -1 || ce.Offset != 0 {
				t.Fatalf("header error %v", err)
			}
			if len(data) >= HeaderSize && string(data[:8]) == Magic {
				t.Fatalf("valid header refused: %v", err)
			}
			return
		}
		want := HeaderSize
		for i := 0; ; i++ {
			if i > len(data) {
				t.Fatalf("%d commands from %d bytes", i, len(data))
			}
			c, err := r.Next()
			if err == io.EOF {
				if want != len(data) || r.Pos() != len(data) {
					t.Fatalf("EOF at %d, commands end at %d of %d", r.Pos(), want, len(data))
				}
				return
			}
			if err != nil {
				var ce *Error
				if !errors.As(err, &ce) {
					t.Fatalf("command %d: error %T: %v", i, err, err)
				}
				if ce.Offset != want || ce.Command != i || ce.Offset >= len(data) {
					t.Fatalf("command %d at %d: error names byte %d, command %d: %v", i, want, ce.Offset, ce.Command, err)
				}
				return
			}
			if c.Index != i || c.Offset != want || c.BodyOffset <= c.Offset || c.End() > len(data) || c.Size < 0 {
				t.Fatalf("command %d framed as %+v (expected at %d of %d)", i, c, want, len(data))
			}
			if r.Pos() != c.End() {
				t.Fatalf("command %d ends at %d, reader at %d", i, c.End(), r.Pos())
			}
			if len(c.Body) > MaxBodySize || (c.Compressed && len(c.Body) > maxSnappyRatio*c.Size) {
				t.Fatalf("command %d: %d-byte body from %d bytes", i, len(c.Body), c.Size)
			}
			if !c.Compressed && len(c.Body) != c.Size {
				t.Fatalf("command %d: uncompressed body of %d bytes, size %d", i, len(c.Body), c.Size)
			}
			want = c.End()
		}
	})
}
