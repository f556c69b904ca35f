package mapfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
)

// FuzzCaptureFolder writes any sync.json and fragment files into a capture
// folder, under folder names plain or not, and reads it: no panic; an error
// in words (no Go type names), or a capture whose every fragment is a file
// of the folder, played signon first, whose walk ends with commands inside
// their fragments.
func FuzzCaptureFolder(f *testing.F) {
	f.Add([]byte(`{"fragment": 5, "signup_fragment": 0}`), cmd(8, 0, []byte{1}), cmd(7, 50, []byte{3}), cmd(7, 51, []byte{4}), uint8(0))
	f.Add([]byte(`{"fragment": "5"}`), cmd(8, 0, nil), cmd(7, 50, nil), []byte{0, 0, 0, 0, 0, 0, 1}, uint8(1))
	f.Add([]byte(`[1]`), []byte{}, []byte{}, []byte{}, uint8(2))
	f.Add([]byte(`{"fragment": 99999999999, "signup_fragment": null}`), cmd(8, 0, []byte{1}), cmd(0x47, 50, []byte{0xff}), []byte{}, uint8(7))
	spellings := [][3]string{{"0", "5", "6"}, {"00", "+5", "06"}, {"0", "5", "05"}, {"1", "1", "2"}}
	f.Fuzz(func(t *testing.T, sync, start, full, delta []byte, names uint8) {
		dir := t.TempDir()
		n := spellings[int(names)%len(spellings)]
		writeFrag(t, dir, "sync.json", sync)
		writeFrag(t, dir, n[0]+"/start.bin", start)
		writeFrag(t, dir, n[1]+"/full.bin", full)
		writeFrag(t, dir, n[1]+"/delta.bin", delta)
		if names&4 != 0 {
			writeFrag(t, dir, n[2]+"/delta.bin", delta)
		}
		data, err := ReadFile(dir)
		if err != nil {
			if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "captureSync") {
				t.Fatalf("error names Go's types: %v", err)
			}
			return
		}
		r, err := container.NewReader(data)
		if err != nil {
			if len(start)+len(full)+len(delta) == 0 {
				return // all empty: refused
			}
			t.Fatalf("assembled capture refused: %v", err)
		}
		segs := r.Segments()
		if len(segs) < 2 || !strings.HasSuffix(segs[0].Name, "/start.bin") || !strings.HasSuffix(segs[1].Name, "/full.bin") {
			t.Fatalf("segments %+v", segs)
		}
		for _, s := range segs {
			if _, err := os.Stat(filepath.Join(dir, s.Name)); err != nil {
				t.Fatalf("segment %s is no file of the folder: %v", s.Name, err)
			}
		}
		for i := 0; i <= len(data); i++ {
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var ce *container.Error
				if !errors.As(err, &ce) || ce.Offset > len(data) {
					t.Fatalf("error %v", err)
				}
				return
			}
			if name, local := r.Place(c.Offset); name == "" || local < 0 || c.End() > len(data) {
				t.Fatalf("command %+v at %s %d", c, name, local)
			}
		}
		t.Fatal("the walk did not end")
	})
}
