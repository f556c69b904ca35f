package mapfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/dembug/dembug/engine/container"
)

// A broadcast capture is a folder: sync.json, N/start.bin (the signon),
// then M/full.bin and M/delta.bin, M+1/delta.bin, … (engine/container
// describes the framing). Open and ReadFile take such a folder, or its
// start.bin, and return the fragments assembled in the order they are
// played: the signon, the first full fragment sync.json names (or the
// lowest there is), then the deltas from it for as long as they follow one
// another. The capture stops where the next delta is missing.

// captureSync is what dembug reads of sync.json: the fragments to start
// from (-1: not given).
type captureSync struct {
	Fragment, SignupFragment int
}

// parseSync reads sync.json's fragment numbers (its other keys are no
// concern of dembug's); an error says what is wrong in words, not in Go's
// type names.
func parseSync(path string, b []byte) (captureSync, error) {
	s := captureSync{Fragment: -1, SignupFragment: -1}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return s, fmt.Errorf("cannot read %s: not a JSON object", path)
		}
		return s, fmt.Errorf("cannot read %s: %v", path, err)
	}
	for _, k := range []struct {
		key string
		to  *int
	}{{"fragment", &s.Fragment}, {"signup_fragment", &s.SignupFragment}} {
		raw, ok := keys[k.key]
		if !ok || string(raw) == "null" {
			continue
		}
		n, err := strconv.ParseInt(string(raw), 10, 32)
		if err != nil {
			return s, fmt.Errorf("cannot read %s: %q is %.40s, not a fragment number", path, k.key, raw)
		}
		*k.to = int(n) // a number no folder has is passed over, as before
	}
	return s, nil
}

// captureDir says whether path is a capture: a folder holding fragment
// folders, or a file of one (its sync.json, or a start.bin, full.bin or
// delta.bin in a fragment folder: none decodes alone, and a user handed
// one means the capture); it returns the capture's folder.
func captureDir(path string) (string, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	if st.IsDir() {
		return path, len(fragmentFolders(path, "start.bin")) > 0
	}
	var dir string
	switch filepath.Base(path) {
	case "start.bin", "full.bin", "delta.bin":
		dir = filepath.Dir(filepath.Dir(path))
	case "sync.json":
		dir = filepath.Dir(path)
	default:
		return "", false
	}
	if startsWithMagic(path) {
		return "", false // a replay named so
	}
	return dir, len(fragmentFolders(dir, "start.bin")) > 0
}

// startsWithMagic reports whether the file at path begins with a .dem
// file's magic: only its first bytes are read (a replay may be named
// start.bin, and it may be large).
func startsWithMagic(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(container.Magic)]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && string(b[:]) == container.Magic
}

// fragmentFolders maps the fragment numbers of dir's numbered folders
// holding file to the folders' names: a folder may be named 00 or +35, and
// what is read is named by the folder that is there. Where two names give
// one number, the plain decimal one is taken.
func fragmentFolders(dir, file string) map[int]string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[int]string{}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n < 0 || !e.IsDir() {
			continue
		}
		if old, ok := out[n]; ok && old == strconv.Itoa(n) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, e.Name(), file)); err == nil && st.Mode().IsRegular() {
			out[n] = e.Name()
		}
	}
	return out
}

// lowest is the lowest fragment number of folders (folders not empty).
func lowest(folders map[int]string) int {
	first := -1
	for n := range folders {
		if first < 0 || n < first {
			first = n
		}
	}
	return first
}

// captureFiles names the fragment files of the capture in dir, relative to
// it, in the order they are played.
func captureFiles(dir string) ([]string, error) {
	sync := captureSync{Fragment: -1, SignupFragment: -1}
	syncPath := filepath.Join(dir, "sync.json")
	if b, err := os.ReadFile(syncPath); err == nil {
		if sync, err = parseSync(syncPath, b); err != nil {
			return nil, err
		}
	}
	starts := fragmentFolders(dir, "start.bin")
	if len(starts) == 0 {
		return nil, fmt.Errorf("cannot read %s: no N/start.bin (a broadcast capture's signon)", dir)
	}
	signon := lowest(starts)
	if _, ok := starts[sync.SignupFragment]; ok {
		signon = sync.SignupFragment
	}
	fulls := fragmentFolders(dir, "full.bin")
	if len(fulls) == 0 {
		return nil, fmt.Errorf("cannot read %s: no N/full.bin (a full frame to start from)", dir)
	}
	first := lowest(fulls)
	if _, ok := fulls[sync.Fragment]; ok {
		first = sync.Fragment
	}
	deltas := fragmentFolders(dir, "delta.bin")
	names := []string{starts[signon] + "/start.bin", fulls[first] + "/full.bin"}
	for n := first; ; n++ {
		folder, ok := deltas[n]
		if !ok {
			break
		}
		names = append(names, folder+"/delta.bin")
	}
	return names, nil
}

// readCapture assembles the capture in dir.
func readCapture(dir string) ([]byte, error) {
	names, err := captureFiles(dir)
	if err != nil {
		return nil, err
	}
	frags := make([]container.Fragment, 0, len(names))
	total := 0
	for _, name := range names {
		path := filepath.Join(dir, name)
		f, st, err := openRegular(path)
		if err != nil {
			return nil, err
		}
		data, err := readAll(path, f, st)
		f.Close()
		if err != nil {
			return nil, err
		}
		if total += len(data); total > MaxSize {
			return nil, fmt.Errorf("cannot read %s: over %d bytes, the limit for a replay", dir, int64(MaxSize))
		}
		frags = append(frags, container.Fragment{Name: name, Data: data})
	}
	return container.AssembleCapture(frags), nil
}

// Overwrites reports whether writing the file out would change what
// reading src reads: out is src itself (links and other spellings
// included), or src stands for a capture and out is one of its files or
// would be read as one (sync.json in its folder, a start.bin, full.bin or
// delta.bin in a numbered folder of it), existing or not.
func Overwrites(src, out string) bool {
	if sameFile(src, out) {
		return true
	}
	dir, ok := captureDir(src)
	if !ok {
		return false
	}
	parent := filepath.Dir(out)
	switch filepath.Base(out) {
	case "sync.json":
		return sameFile(parent, dir)
	case "start.bin", "full.bin", "delta.bin":
		_, err := strconv.Atoi(filepath.Base(parent))
		return err == nil && sameFile(filepath.Dir(parent), dir)
	}
	return false
}

// sameFile reports whether paths a and b name one existing file or folder.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// Size is the number of bytes reading path reads: a regular file's size,
// or the sum of the fragment files of the capture path stands for (the
// memory budget is set by it; a folder's own size says nothing). 0 when it
// cannot be known.
func Size(path string) int64 {
	if dir, ok := captureDir(path); ok {
		names, err := captureFiles(dir)
		if err != nil {
			return 0
		}
		var n int64
		for _, name := range names {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
				n += st.Size()
			}
		}
		return n
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return st.Size()
	}
	return 0
}
