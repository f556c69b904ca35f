package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/internal/testreplays"
)

// Their trace covers a tick but reads nothing of one entity's update there
// (their parser skipped it): compare reports the update, once, with how
// many reads it holds; --entities narrowed to the others leaves it out.
func TestCompareFindsSkippedUpdate(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	lines := traceLines(t, data, false)
	k := pick(t, lines)
	l := obj(t, lines[k])
	tick, ent := num(t, l, "tick"), num(t, l, "entity")
	var kept [][]byte
	others := map[int64]bool{}
	skipped := 0
	for _, ln := range lines {
		o := obj(t, ln)
		if num(t, o, "tick") == tick && num(t, o, "entity") == ent {
			skipped++
			continue
		}
		others[num(t, o, "entity")] = true
		kept = append(kept, ln)
	}
	if len(kept) == len(lines) || skipped == 0 {
		t.Fatal("nothing removed")
	}
	res := compareLines(t, data, kept)
	d := res.First
	if d == nil || d.What != compare.MissingUpdate || int64(d.Tick) != tick || int64(d.Entity) != ent || d.Reads != skipped || res.MissingUpdates != 1 || len(res.All) != 1 {
		t.Fatalf("first %+v (%d differences, %d missing updates); want entity %d's update at tick %d, %d reads", d, len(res.All), res.MissingUpdates, ent, tick, skipped)
	}
	// From the command line, and narrowed with --entities.
	p := filepath.Join(t.TempDir(), "theirs.jsonl")
	if err := os.WriteFile(p, append(bytes.Join(kept, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runDembug("compare", path, p)
	if err == nil || !strings.Contains(out, "missing update") || !strings.Contains(out, "1 update their trace skips whole") {
		t.Fatalf("compare: %v\n%s", err, out)
	}
	var ids []string
	for e := range others {
		if e != ent {
			ids = append(ids, strconv.FormatInt(e, 10))
		}
	}
	slices.Sort(ids)
	out, _, err = runDembug("compare", path, p, "--entities", strings.Join(ids, ","))
	if err != nil || !strings.Contains(out, "no difference") {
		t.Fatalf("compare --entities without %d: %v\n%s", ent, err, out)
	}
}
