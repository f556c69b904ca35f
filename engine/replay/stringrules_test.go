package replay_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// runToTick decodes every command whose tick is at most tick.
func runToTick(t *testing.T, data []byte, tick int32) *replay.Replay {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if next, ok := r.NextTick(); !ok || next > tick {
			return r
		}
		if _, err := r.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

// modifier is what an ActiveModifiers value (CDOTAModifierBuffTableEntry)
// says about the modifier it belongs to: entry_type (1 active, 2 removed),
// parent (an entity handle) and serial number.
type modifier struct{ entryType, parent, serial uint64 }

func parseModifier(t *testing.T, b []byte) modifier {
	t.Helper()
	var m modifier
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag in %x", b)
		}
		b = b[n:]
		var v uint64
		if typ == protowire.VarintType {
			v, n = protowire.ConsumeVarint(b)
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			t.Fatalf("bad field %d", num)
		}
		b = b[n:]
		switch num {
		case 1:
			m.entryType = v
		case 2:
			m.parent = v
		case 4:
			m.serial = v
		}
	}
	return m
}

func activeModifier(t *testing.T, r *replay.Replay, i int32) modifier {
	t.Helper()
	tab := r.Strings.ByName("ActiveModifiers")
	if tab == nil {
		t.Fatal("no ActiveModifiers table")
	}
	e, ok := tab.Get(i)
	if !ok {
		t.Fatalf("ActiveModifiers has no entry %d", i)
	}
	return parseModifier(t, e.Value)
}

// A jump lands at the previous index + v + 2: at tick 22 the Dota replay
// removes modifier (parent 12271824, serial 430), which is live at index
// 267 before; at tick 70 a new modifier reuses slot 303, removed at tick 60.
// Read by the absolute rule, the removal lands on index 32 (another live
// modifier) and the new one over a live one at index 22.
func TestActiveModifiersJumps(t *testing.T) {
	data := readDota(t)
	before := runToTick(t, data, 16)
	if m := activeModifier(t, before, 267); m != (modifier{1, 12271824, 430}) {
		t.Fatalf("before tick 22, entry 267 = %+v, want the live modifier parent 12271824 serial 430", m)
	}
	at60 := runToTick(t, data, 60)
	if m := activeModifier(t, at60, 303); m.entryType != 2 {
		t.Fatalf("at tick 60, entry 303 = %+v, want a removed modifier", m)
	}
	r := runToTick(t, data, 70)
	if m := activeModifier(t, r, 267); m != (modifier{2, 12271824, 430}) {
		t.Errorf("after tick 70, entry 267 = %+v, want the removal of parent 12271824 serial 430", m)
	}
	if m := activeModifier(t, r, 303); m != (modifier{1, 9191572, 436}) {
		t.Errorf("after tick 70, entry 303 = %+v, want the new modifier parent 9191572 serial 436", m)
	}
	// The untouched live modifiers the absolute rule would overwrite.
	for i, want := range map[int32]modifier{32: {1, 3097144, 39}, 22: activeModifier(t, before, 22)} {
		if m := activeModifier(t, r, i); m != want || m.entryType != 1 {
			t.Errorf("after tick 70, entry %d = %+v, want the live %+v it held at tick 16", i, m, want)
		}
	}
}

func readDota(t *testing.T) []byte {
	t.Helper()
	for _, p := range testreplays.Files(t, "dota2") {
		if filepath.Base(p) == "auto-20240102-2233.dem" {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	t.Skip("auto-20240102-2233.dem not among the shared Dota replays")
	return nil
}

// same reports whether a table holds exactly a snapshot's items.
func same(tab *stringtable.Table, items []messages.SnapshotItem) bool {
	if tab == nil || tab.Len() != len(items) {
		return false
	}
	for i, it := range items {
		e, ok := tab.Get(int32(i))
		if !ok || e.Key != it.Key || !bytes.Equal(e.Value, it.Data) {
			return false
		}
	}
	return true
}

// The game's own snapshots check the rules: every table a DEM_FullPacket
// carries is a state the tables built from the messages pass through, at
// the full packet or later (the Dota replay's full packet at tick 0 holds
// the end-of-file state of eight tables: ActiveModifiers among them, which
// the absolute jump rule leaves different in two entries). And at every
// command each class's baseline is the instancebaseline entry it has then:
// none taken from a full packet's later state.
func TestTablesPassThroughTheGamesSnapshots(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		type pending struct {
			tick int32
			st   messages.SnapshotTable
		}
		var waiting []pending
		checked := 0
		r.Hooks.Command = func(c *container.Command) {
			if c.Kind == container.FullPacket {
				fp, err := messages.ParseFullPacket(c.Body)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				sts, err := messages.ParseStringTables(fp.StringTables)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				for _, st := range sts {
					for i := range st.Items {
						st.Items[i].Data = bytes.Clone(st.Items[i].Data)
					}
					waiting = append(waiting, pending{c.Tick, st})
				}
			}
			kept := waiting[:0]
			for _, p := range waiting {
				if same(r.Strings.ByName(p.st.Name), p.st.Items) {
					checked++
				} else {
					kept = append(kept, p)
				}
			}
			waiting = kept
			if base := r.Strings.ByName("instancebaseline"); base != nil && c.Index%7 == 0 {
				for id, cl := range r.Entities.Classes {
					if cl == nil {
						continue
					}
					e, _ := base.ByKey(strconv.Itoa(id))
					if got := r.Entities.Baseline(int32(id)); !bytes.Equal(got, e.Value) {
						t.Fatalf("%s: command %d (tick %d): class %d's baseline is %d bytes, its instancebaseline entry %d", path, c.Index, c.Tick, id, len(got), len(e.Value))
					}
				}
			}
		}
		if err := r.Run(nil); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, p := range waiting {
			t.Errorf("%s: the table %s of the full packet at tick %d (%d items) never matched; at the end it has %d entries", path, p.st.Name, p.tick, len(p.st.Items), r.Strings.ByName(p.st.Name).Len())
		}
		t.Logf("%s: %d full-packet tables matched", filepath.Base(path), checked)
	})
}

// A DEM_StringTables snapshot sets every table it names: a recording that
// starts mid-game sends here the entries its creates left out. The Dota
// replay, its snapshot given two EntityNames entries no message sends and
// a userinfo value changed, has them right after the snapshot.
func TestSnapshotSetsEveryTable(t *testing.T) {
	data := readDota(t)
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	f := writer.NewFile()
	for {
		c, err := cr.Next()
		if err != nil {
			break
		}
		body := append([]byte(nil), c.Body...)
		if c.Kind == container.StringTables {
			sts, err := messages.ParseStringTables(body)
			if err != nil {
				t.Fatal(err)
			}
			for i := range sts {
				switch sts[i].Name {
				case "EntityNames":
					sts[i].Items = append(sts[i].Items, messages.SnapshotItem{Key: "late_one", Data: []byte{1}}, messages.SnapshotItem{Key: "late_two"})
				case "userinfo":
					sts[i].Items[0].Data = []byte{0xde, 0xad}
				}
			}
			body = writer.StringTablesBody(sts)
		}
		f.Command(c.Kind, c.Tick, body, c.Compressed)
	}
	r, err := replay.Open(f.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(func(c *container.Command) bool { return c.Kind == container.StringTables }); err != nil {
		t.Fatal(err)
	}
	names := r.Strings.ByName("EntityNames")
	n := int32(names.Len())
	a, _ := names.Get(n - 2)
	b, _ := names.Get(n - 1)
	if a.Key != "late_one" || !bytes.Equal(a.Value, []byte{1}) || b.Key != "late_two" || b.Value != nil {
		t.Errorf("EntityNames ends with %+v, %+v", a, b)
	}
	if u, _ := r.Strings.ByName("userinfo").Get(0); !bytes.Equal(u.Value, []byte{0xde, 0xad}) {
		t.Errorf("userinfo 0 = %+v", u)
	}
}

// No baseline from the future: the Dota replay's full packet at tick 0
// holds class 992's baseline, which svc_UpdateStringTable sends at tick
// 640; until then the class has none.
func TestBaselineComesInTime(t *testing.T) {
	data := readDota(t)
	if b := runToTick(t, data, 639).Entities.Baseline(992); b != nil {
		t.Errorf("class 992 has a %d-byte baseline before tick 640", len(b))
	}
	r := runToTick(t, data, 640)
	e, ok := r.Strings.ByName("instancebaseline").ByKey("992")
	if b := r.Entities.Baseline(992); !ok || len(b) == 0 || !bytes.Equal(b, e.Value) {
		t.Errorf("after tick 640 class 992's baseline is %d bytes, its instancebaseline entry %d (%v)", len(b), len(e.Value), ok)
	}
}
