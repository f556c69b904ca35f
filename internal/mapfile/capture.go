package mapfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
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

// captureSync is what dembug reads of sync.json.
type captureSync struct {
	Fragment       *int `json:"fragment"`
	SignupFragment *int `json:"signup_fragment"`
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
		return path, len(fragmentNumbers(path, "start.bin")) > 0
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
	return dir, len(fragmentNumbers(dir, "start.bin")) > 0
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

// fragmentNumbers lists the numbered folders of dir holding file, in order.
func fragmentNumbers(dir, file string) []int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n < 0 || !e.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, e.Name(), file)); err == nil && st.Mode().IsRegular() {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// readCapture assembles the capture in dir.
func readCapture(dir string) ([]byte, error) {
	var sync captureSync
	if b, err := os.ReadFile(filepath.Join(dir, "sync.json")); err == nil {
		if err := json.Unmarshal(b, &sync); err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", filepath.Join(dir, "sync.json"), err)
		}
	}
	starts := fragmentNumbers(dir, "start.bin")
	if len(starts) == 0 {
		return nil, fmt.Errorf("cannot read %s: no N/start.bin (a broadcast capture's signon)", dir)
	}
	signon := starts[0]
	if sync.SignupFragment != nil && contains(starts, *sync.SignupFragment) {
		signon = *sync.SignupFragment
	}
	fulls := fragmentNumbers(dir, "full.bin")
	if len(fulls) == 0 {
		return nil, fmt.Errorf("cannot read %s: no N/full.bin (a full frame to start from)", dir)
	}
	first := fulls[0]
	if sync.Fragment != nil && contains(fulls, *sync.Fragment) {
		first = *sync.Fragment
	}
	names := []string{fmt.Sprintf("%d/start.bin", signon), fmt.Sprintf("%d/full.bin", first)}
	for n := first; ; n++ {
		name := fmt.Sprintf("%d/delta.bin", n)
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			break
		}
		names = append(names, name)
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

func contains(xs []int, x int) bool {
	i := sort.SearchInts(xs, x)
	return i < len(xs) && xs[i] == x
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
