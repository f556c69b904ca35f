package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/testdata"
)

// The Dota replay's ActiveModifiers update at tick 22 walks to a jump
// that lands on index 267 (previous + v + 2), where the modifier it
// removes was live: the walk shows the entry before and after.
func TestWalkActiveModifiersJump(t *testing.T) {
	var data []byte
	for _, p := range testreplays.Files(t, "dota2") {
		if filepath.Base(p) == "auto-20240102-2233.dem" {
			data, _ = os.ReadFile(p)
		}
	}
	if data == nil {
		t.Skip("auto-20240102-2233.dem not among the shared Dota replays")
	}
	ix := BuildIndex("dota.dem", data)
	found := false
	for i := range ix.Commands {
		c := &ix.Commands[i]
		if c.Tick != 22 {
			continue
		}
		for j, m := range c.Msgs() {
			if m.Name != "svc_UpdateStringTable" {
				continue
			}
			w, err := walkStringTable(start{data, schema.Aliases{}, ix.Keyframes, c.Index}, *c, j)
			if err != nil || w.Err != nil {
				t.Fatalf("walk: %v / %v", err, w.Err)
			}
			if w.Table != "ActiveModifiers" {
				continue
			}
			for _, e := range w.Entries {
				if e.Index != 267 {
					continue
				}
				found = true
				jump := e.Parts[1]
				if e.Parts[0].V != 0 || jump.Kind != stringtable.PartJump || int64(e.Prev)+int64(jump.V)+2 != 267 {
					t.Errorf("entry 267 reached by %+v from %d", e.Parts[:2], e.Prev)
				}
				if !e.Existed || len(e.Before.Value) <= len(e.After.Value) || e.After.Key != "267" {
					t.Errorf("entry 267 before %x, after %x (key %q)", e.Before.Value, e.After.Value, e.After.Key)
				}
				last := e.Parts[len(e.Parts)-1]
				if last.Kind != stringtable.PartValue || last.Start+last.Bits != e.End || e.End > uint(len(w.Data))*8 {
					t.Errorf("last part %+v, entry ends at %d of %d bits", last, e.End, len(w.Data)*8)
				}
			}
		}
	}
	if !found {
		t.Fatal("no ActiveModifiers update at tick 22 wrote entry 267")
	}
}

// A create walks over an empty table; an update over the table its
// create and the updates before made (the sample's tick-15 EntityNames
// update, after the create's two entries).
func TestWalkSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	walks := 0
	for i := range ix.Commands {
		c := &ix.Commands[i]
		for j, m := range c.Msgs() {
			if m.Name != "svc_CreateStringTable" && m.Name != "svc_UpdateStringTable" {
				continue
			}
			w, err := walkStringTable(start{testdata.Sample, schema.Aliases{}, ix.Keyframes, c.Index}, *c, j)
			if err != nil || w.Err != nil {
				t.Fatalf("command #%d message %d: %v / %v", c.Index, j, err, w.Err)
			}
			walks++
			for _, e := range w.Entries {
				if m.Name == "svc_CreateStringTable" && e.Existed {
					t.Errorf("%s create: entry %d existed before", w.Table, e.Index)
				}
			}
			if m.Name == "svc_UpdateStringTable" {
				if w.ID < 0 || len(w.Entries) != 1 || w.Entries[0].Index != 2 || w.Entries[0].After.Key != "npc_dota_creep_badguys_ranged" {
					t.Errorf("update walk %+v", w.Entries)
				}
			}
		}
	}
	if walks < 3 {
		t.Fatalf("%d walks", walks)
	}
}
