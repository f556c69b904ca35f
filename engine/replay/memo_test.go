package replay_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// TestRepeatedPathsDecodeAsFresh holds the entity update memos (paths
// that repeat a recent update of the entity are not decoded again) to the
// fresh decode (Table.FreshPaths). Every shared replay is decoded fresh and
// recording, through the memos recording, and through the memos plain for
// three quarters of the replay, then recording. Each
// packet-entities message must read the same bits and fields and record
// the same provenance, the decoder calls must agree, and every entity must
// end with the same state. A snapshot taken halfway must not change while
// the decode goes on past it, as the memos hold state nodes it shares.
func TestRepeatedPathsDecodeAsFresh(t *testing.T) {
	dir := testreplays.Require(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.dem"))
	if len(files) == 0 {
		t.Skipf("no replays (*/*.dem) in %s", dir)
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fresh, freshResults, commands := decodeForMemo(t, data, true, true, -1, -1)
			recorded, recordedResults, _ := decodeForMemo(t, data, false, true, -1, -1)
			memo, memoResults, _ := decodeForMemo(t, data, false, false, commands/2, commands*3/4)
			for _, run := range []struct {
				name    string
				results []string
			}{{"recording through the memos", recordedResults}, {"through the memos", memoResults}} {
				if len(run.results) != len(freshResults) {
					t.Fatalf("%s: %d packet-entities messages, %d fresh", run.name, len(run.results), len(freshResults))
				}
				for i, want := range freshResults {
					if !strings.HasPrefix(want, run.results[i]) { // the plain run records nothing
						t.Fatalf("%s, message %d: %s; fresh: %s", run.name, i, run.results[i], want)
					}
				}
			}
			for _, run := range []memoRun{recorded, memo} {
				if run.table.Stats.Calls != fresh.table.Stats.Calls {
					t.Errorf("decoder calls differ: %v through the memos, %v fresh", run.table.Stats.Calls, fresh.table.Stats.Calls)
				}
				if d := sameEntities(run.table, fresh.table); d != "" {
					t.Errorf("final state: %s", d)
				}
			}
			if d := sameEntities(memo.halfway, memo.frozen); d != "" {
				t.Errorf("the halfway snapshot changed as the decode went on: %s", d)
			}
		})
	}
}

type memoRun struct {
	table   *entity.Table
	halfway *entity.Table // snapshot taken after half the commands
	frozen  *entity.Table // deep copy of it, made at the time
}

// decodeForMemo decodes data whole, reading every update's paths afresh
// when fresh is set and recording every message when record is set. After
// snapAt commands (never if negative) it snapshots the entities, and after
// recordAt it starts recording. It
// returns one summary per packet-entities message (with every recorded
// field) and the command count.
func decodeForMemo(t *testing.T, data []byte, fresh, record bool, snapAt, recordAt int) (memoRun, []string, int) {
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	r.Entities.FreshPaths = fresh
	var rec provenance.Message
	if record {
		r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
	}
	var results []string
	r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, res entity.Result, m *provenance.Message) {
		s := fmt.Sprintf("%d updates, %d fields, end bit %d, misaligned %v, error %v",
			res.Updates, res.Fields, res.EndBit, res.Misaligned, res.Err)
		if m != nil {
			s += fmt.Sprintf("; record %016x", recordHash(m))
		}
		results = append(results, s)
	}
	var run memoRun
	commands := 0
	err = r.Run(func(*container.Command) bool {
		if commands == snapAt {
			run.halfway = r.Entities.Snapshot()
			run.frozen = deepCopy(run.halfway)
		}
		if commands == recordAt {
			// From here on record too, through memos filled unrecorded.
			r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
		}
		commands++
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if snapAt >= 0 && run.halfway == nil {
		t.Fatalf("the replay has %d commands; no snapshot after %d", commands, snapAt)
	}
	run.table = r.Entities
	return run, results, commands
}

// deepCopy copies every entity and state node of t.
func deepCopy(t *entity.Table) *entity.Table {
	c := &entity.Table{}
	for i, e := range t.Entities {
		if e != nil {
			c.Entities[i] = &entity.Entity{Index: e.Index, Serial: e.Serial, Class: e.Class, State: e.State.Clone(), Active: e.Active}
		}
	}
	return c
}

// sameEntities describes the first difference between two tables'
// entities, or returns "".
func sameEntities(a, b *entity.Table) string {
	for i := range a.Entities {
		ea, eb := a.Entities[i], b.Entities[i]
		switch {
		case (ea == nil) != (eb == nil):
			return fmt.Sprintf("entity %d exists on one side only", i)
		case ea == nil:
			continue
		case ea.Serial != eb.Serial || ea.Class.Name != eb.Class.Name || ea.Active != eb.Active:
			return fmt.Sprintf("entity %d: serial, class or activity differ", i)
		}
		if d := sameNode(ea.State, eb.State); d != "" {
			return fmt.Sprintf("entity %d (%s): %s", i, ea.Class.Name, d)
		}
	}
	return ""
}

func sameNode(a, b *entity.Node) string { return a.Diff(b) }

// recordHash digests everything a message's record holds but pointers.
func recordHash(m *provenance.Message) uint64 {
	h := fnv.New64a()
	var b []byte
	for _, u := range m.Updates {
		b = fmt.Appendf(b[:0], "%d %d %d %s %d %d %d %d %d %d %d %v %s|", u.Index, u.Serial, u.ClassID, u.Op, u.Start, u.HeaderBits,
			u.PathStart, u.PathBits, u.FirstField, u.NumFields, u.End, u.Skipped, u.Err)
		h.Write(b)
	}
	for _, f := range m.Fields {
		b = b[:0]
		for _, i := range f.Path.Slice() {
			b = binary.AppendVarint(b, int64(i))
		}
		for _, u := range []uint{uint(f.Update), uint(f.Op.Op), f.Op.Start, f.Op.Bits, f.Start, f.Bits, uint(f.Decoder.Family)} {
			b = binary.AppendUvarint(b, uint64(u))
		}
		b = append(append(append(b, f.Name...), f.Why...), f.Schema.Name...)
		for _, v := range []decoder.Value{f.Value, f.Prev} {
			b = append(b, byte(v.Kind), v.N)
			b = binary.LittleEndian.AppendUint64(b, v.U)
			for _, x := range v.F {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			}
		}
		h.Write(b)
	}
	for _, o := range m.Finishes {
		b = fmt.Appendf(b[:0], "%d %d %d|", o.Op, o.Start, o.Bits)
		h.Write(b)
	}
	return h.Sum64()
}

// TestTruncatedDataDecodesAsFresh feeds the Dota 2 replay's in-game
// packet-entities messages, each cut short by 1 to 16 bytes before it is
// fed whole, to a table reading through its memos and one reading every
// path afresh. Memo sections are compared up to the data's last bit, so
// the cut messages end inside remembered sections and values: both tables
// must report the same updates, fields, end bit and error for each, and
// end with the same state.
func TestTruncatedDataDecodesAsFresh(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	msgs := inGameEntities(t, data)
	memo, fresh := signonEnd(t, data).Entities, signonEnd(t, data).Entities
	fresh.FreshPaths = true
	apply := func(i, cut int) {
		m := msgs[i]
		m.EntityData = m.EntityData[:len(m.EntityData)-cut]
		a, b := memo.Apply(&m, nil), fresh.Apply(&m, nil)
		got := fmt.Sprintf("%d updates, %d fields, end bit %d, error %v", a.Updates, a.Fields, a.EndBit, a.Err)
		want := fmt.Sprintf("%d updates, %d fields, end bit %d, error %v", b.Updates, b.Fields, b.EndBit, b.Err)
		if got != want {
			t.Fatalf("message %d cut by %d bytes: %s through the memos; fresh: %s", i, cut, got, want)
		}
	}
	cuts := 0
	for i := range msgs {
		for cut := 1; cut <= 16 && cut < len(msgs[i].EntityData); cut++ {
			apply(i, cut)
			cuts++
		}
		apply(i, 0)
	}
	if d := sameEntities(memo, fresh); d != "" {
		t.Fatalf("final state: %s", d)
	}
	if cuts < 5000 {
		t.Fatalf("only %d cut messages", cuts)
	}
}

// TestRecordingSetsEveryMember records the Dota 2 replay into a buffer
// whose every field is filled with garbage before each message, and
// against a new buffer each message: recording fills fields in place
// (provenance.Message.NextField), so a member it forgot to set would keep
// the garbage.
func TestRecordingSetsEveryMember(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	garbage := provenance.Field{
		Update: -7, Path: fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{9, 9, 9}, Last: 2},
		Op: fieldpath.OpRecord{Op: fieldpath.PlusN, Start: 1 << 40, Bits: 99}, Name: "garbage",
		Schema: &schema.Field{Name: "garbage"}, Decoder: &decoder.Decoder{Family: decoder.FamBinaryBlock}, Why: "garbage",
		Start: 1 << 41, Bits: 77, Value: decoder.String("garbage"), Prev: decoder.Vector(1, 2, 3),
	}
	run := func(dirty bool) []uint64 {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		reused := provenance.Message{Fields: make([]provenance.Field, 0, 1<<14)}
		r.Hooks.Record = func(replay.Location) *provenance.Message {
			if !dirty {
				return &provenance.Message{}
			}
			reused.Fields = reused.Fields[:cap(reused.Fields)]
			for i := range reused.Fields {
				reused.Fields[i] = garbage
			}
			return &reused
		}
		var hashes []uint64
		r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
			hashes = append(hashes, recordHash(m))
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		return hashes
	}
	clean, dirty := run(false), run(true)
	if len(clean) != len(dirty) || len(clean) == 0 {
		t.Fatalf("%d messages recorded into new buffers, %d into the reused one", len(clean), len(dirty))
	}
	for i := range clean {
		if clean[i] != dirty[i] {
			t.Fatalf("message %d: the reused buffer's record differs", i)
		}
	}
}

// TestSnapshotsStayUnchanged snapshots the Dota 2 entity table every 20
// commands of a decode through the memos and checks at the end that none
// changed: the memos hold pointers into state nodes a snapshot shares.
func TestSnapshotsStayUnchanged(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	type kept struct {
		at           int
		snap, frozen *entity.Table
	}
	var snaps []kept
	commands := 0
	err = r.Run(func(*container.Command) bool {
		if commands%20 == 19 {
			s := r.Entities.Snapshot()
			snaps = append(snaps, kept{commands, s, deepCopy(s)})
		}
		commands++
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) < 10 {
		t.Fatalf("only %d snapshots", len(snaps))
	}
	for _, k := range snaps {
		if d := sameEntities(k.snap, k.frozen); d != "" {
			t.Fatalf("the snapshot after %d commands changed as the decode went on: %s", k.at, d)
		}
	}
}

// TestSharedStatesStayUnchanged: the states the debugger keeps per update
// (Table.ShareState, constant time) never change as the decode goes on,
// and the decode after sharing matches a decode without.
func TestSharedStatesStayUnchanged(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	type kept struct {
		at            int
		shared, clone *entity.Node
	}
	var all []kept
	msgs := 0
	r.Hooks.Entities = func(loc replay.Location, m *messages.PacketEntities, res entity.Result, rec *provenance.Message) {
		msgs++
		if msgs%7 != 0 {
			return
		}
		for i, e := range r.Entities.Entities {
			if e != nil && i%5 == msgs%5 {
				n := r.Entities.ShareState(int32(i))
				all = append(all, kept{msgs, n, n.Clone()})
			}
		}
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	if len(all) < 100 {
		t.Fatalf("only %d states shared", len(all))
	}
	for _, k := range all {
		if d := k.shared.Diff(k.clone); d != "" {
			t.Fatalf("a state shared after message %d changed as the decode went on: %s", k.at, d)
		}
	}
	plain, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Run(nil); err != nil {
		t.Fatal(err)
	}
	if d := sameEntities(r.Entities, plain.Entities); d != "" {
		t.Fatalf("sharing states changed the decode: %s", d)
	}
}
