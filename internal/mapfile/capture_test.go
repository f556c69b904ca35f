package mapfile

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
)

func writeFrag(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func cmd(kind byte, tick uint32, body []byte) []byte {
	b := []byte{kind}
	b = binary.LittleEndian.AppendUint32(b, tick)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	return append(b, body...)
}

// A capture folder is read in play order: the signon, the full fragment
// sync.json names, then the deltas for as long as they follow one another.
func TestCaptureFolder(t *testing.T) {
	dir := t.TempDir()
	writeFrag(t, dir, "0/start.bin", cmd(8, 0, []byte{1}))
	writeFrag(t, dir, "4/full.bin", cmd(7, 40, []byte{2})) // before the one sync.json names
	writeFrag(t, dir, "5/full.bin", cmd(7, 50, []byte{3}))
	writeFrag(t, dir, "5/delta.bin", cmd(7, 51, []byte{4}))
	writeFrag(t, dir, "6/delta.bin", cmd(7, 61, []byte{5}))
	writeFrag(t, dir, "8/delta.bin", cmd(7, 81, []byte{6})) // after a gap: not read
	writeFrag(t, dir, "sync.json", []byte(`{"fragment": 5, "signup_fragment": 0, "tps": 64}`))
	// The folder, or any file of it: none of them decodes alone.
	for _, path := range []string{dir, filepath.Join(dir, "0", "start.bin"), filepath.Join(dir, "6", "delta.bin"), filepath.Join(dir, "5", "full.bin"), filepath.Join(dir, "sync.json")} {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := container.NewReader(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range r.Segments() {
			names = append(names, s.Name)
		}
		if got := strings.Join(names, " "); got != "0/start.bin 5/full.bin 5/delta.bin 6/delta.bin" {
			t.Fatalf("%s: fragments %s", path, got)
		}
	}
	// Without sync.json the lowest full fragment starts.
	os.Remove(filepath.Join(dir, "sync.json"))
	data, err := ReadFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := container.NewReader(data)
	if segs := r.Segments(); len(segs) != 2 || segs[1].Name != "4/full.bin" {
		t.Fatalf("segments %+v", segs)
	}
}

func TestFolderWithoutCapture(t *testing.T) {
	_, err := Open(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no broadcast capture") {
		t.Fatalf("err %v", err)
	}
}

// A capture is overwritten through any file it reads or would read by its
// name, whichever file of it stands for it; a file of another name in its
// folder, or a plain replay's neighbour, is not.
func TestOverwritesCaptureFiles(t *testing.T) {
	dir := t.TempDir()
	writeFrag(t, dir, "0/start.bin", cmd(8, 0, []byte{1}))
	writeFrag(t, dir, "5/full.bin", cmd(7, 50, []byte{3}))
	writeFrag(t, dir, "5/delta.bin", cmd(7, 51, []byte{4}))
	writeFrag(t, dir, "sync.json", []byte(`{"fragment": 5}`))
	writeFrag(t, dir, "plain.dem", []byte(container.Magic+"rest"))
	for _, src := range []string{dir, filepath.Join(dir, "5", "delta.bin"), filepath.Join(dir, "sync.json")} {
		for _, out := range []string{"sync.json", "0/start.bin", "5/full.bin", "5/delta.bin", "6/../5/delta.bin", "0/delta.bin"} {
			if !Overwrites(src, filepath.Join(dir, out)) {
				t.Errorf("writing %s does not overwrite the capture read from %s", out, src)
			}
		}
		for _, out := range []string{"cut.dem", "0/cut.dem", "sync.json.dem", "x/delta.bin"} {
			if Overwrites(src, filepath.Join(dir, out)) {
				t.Errorf("writing %s overwrites the capture read from %s", out, src)
			}
		}
	}
	plain := filepath.Join(dir, "plain.dem")
	if !Overwrites(plain, plain) || Overwrites(plain, filepath.Join(dir, "sync.json")) {
		t.Errorf("a replay file: overwritten only by itself")
	}
}

// Fragment folders named otherwise than plainly (00, +5) are read by the
// names they have (the capture named paths that did not exist); a plain
// name wins over another spelling of its number.
func TestCaptureFolderNamesAsTheyAre(t *testing.T) {
	dir := t.TempDir()
	writeFrag(t, dir, "00/start.bin", cmd(8, 0, []byte{1}))
	writeFrag(t, dir, "+5/full.bin", cmd(7, 50, []byte{3}))
	writeFrag(t, dir, "+5/delta.bin", cmd(7, 51, []byte{4}))
	writeFrag(t, dir, "06/delta.bin", cmd(7, 61, []byte{5}))
	writeFrag(t, dir, "7/delta.bin", cmd(7, 71, []byte{6}))
	writeFrag(t, dir, "007/delta.bin", cmd(7, 71, []byte{7}))
	data, err := ReadFile(filepath.Join(dir, "06", "delta.bin"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range r.Segments() {
		names = append(names, s.Name)
		if _, err := os.Stat(filepath.Join(dir, s.Name)); err != nil {
			t.Errorf("segment %s: %v", s.Name, err)
		}
	}
	if got := strings.Join(names, " "); got != "00/start.bin +5/full.bin +5/delta.bin 06/delta.bin 7/delta.bin" {
		t.Fatalf("fragments %s", got)
	}
}

// A sync.json with keys of the wrong type says which key and what it
// holds, in words, not Go's type names; keys dembug does not read may hold
// anything.
func TestCaptureSyncOfWrongTypes(t *testing.T) {
	dir := t.TempDir()
	writeFrag(t, dir, "0/start.bin", cmd(8, 0, []byte{1}))
	writeFrag(t, dir, "5/full.bin", cmd(7, 50, []byte{3}))
	for sync, want := range map[string]string{
		`{"fragment": "5"}`:                        `"fragment" is "5", not a fragment number`,
		`{"fragment": 5, "signup_fragment": true}`: `"signup_fragment" is true, not a fragment number`,
		`{"fragment": 5.5}`:                        `"fragment" is 5.5, not a fragment number`,
		`{"fragment": {"a": 1}}`:                   `"fragment" is {"a": 1}, not a fragment number`,
		`[5]`:                                      `sync.json: not a JSON object`,
		`"5"`:                                      `sync.json: not a JSON object`,
		`{"fragment": 5`:                           `sync.json: unexpected end of JSON input`,
		`{"fragment": 5, "map": 3, "tps": "x"}`:    "",
		`{"fragment": null}`:                       "",
		`{"fragment": 99999999999}`:                `"fragment" is 99999999999, not a fragment number`,
	} {
		writeFrag(t, dir, "sync.json", []byte(sync))
		_, err := ReadFile(dir)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", sync, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v; want %q", sync, err, want)
		case err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "int")):
			t.Errorf("%s: %v names Go's types", sync, err)
		}
	}
}
