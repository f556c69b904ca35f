package entity_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// inGame is the Dota 2 replay's entity table just before its first
// in-game packet-entities message, and the first few in-game messages.
var inGame struct {
	once  sync.Once
	table *entity.Table
	msgs  []messages.PacketEntities
	err   string
}

// dotaInGame decodes the Dota 2 replay once, up to the first in-game
// packet-entities message (taking a snapshot of the table just before it is
// applied) and a few messages more. It returns nil when the shared replays
// are absent.
func dotaInGame() (*entity.Table, []messages.PacketEntities, string) {
	inGame.once.Do(func() {
		dir := testreplays.Dir()
		if dir == "" {
			inGame.err = "shared replays not found"
			return
		}
		files, _ := filepath.Glob(filepath.Join(dir, "dota2", "*.dem"))
		if len(files) == 0 {
			inGame.err = "no Dota 2 replay in " + dir
			return
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			inGame.err = err.Error()
			return
		}
		r, err := replay.Open(data)
		if err != nil {
			inGame.err = err.Error()
			return
		}
		r.Hooks.Inner = func(loc replay.Location, m *messages.Inner) {
			if m.Type != messages.SvcPacketEntities || loc.Kind != container.Packet || loc.Tick < 0 {
				return
			}
			pe, err := messages.ParsePacketEntities(m.Body)
			if err != nil || !pe.IsDelta {
				return
			}
			if inGame.table == nil {
				inGame.table = r.Entities.Snapshot()
			}
			pe.EntityData = bytes.Clone(pe.EntityData)
			inGame.msgs = append(inGame.msgs, pe)
		}
		err = r.Run(func(*container.Command) bool { return len(inGame.msgs) >= 4 })
		if inGame.table == nil {
			inGame.err = "no in-game packet-entities message"
			if err != nil {
				inGame.err += ": " + err.Error()
			}
		}
	})
	return inGame.table, inGame.msgs, inGame.err
}

// The fuzz seed is real: the first in-game message applies cleanly to the
// snapshot, and again to a second snapshot (snapshots do not share writes).
func TestFirstInGameMessageApplies(t *testing.T) {
	base, msgs, why := dotaInGame()
	if base == nil {
		t.Skip(why)
	}
	for range 2 {
		res := base.Snapshot().Apply(&msgs[0], nil)
		if res.Err != nil || res.Updates == 0 || res.Fields == 0 {
			t.Fatalf("first in-game message: %d updates, %d fields, %v", res.Updates, res.Fields, res.Err)
		}
	}
}

// FuzzApply applies a svc_PacketEntities message with arbitrary entity data
// and update count to a snapshot of the real Dota 2 entity table at its
// first in-game packet (real schema, classes, baselines and live
// entities), with and without recording, or under a bit-edit what-if.
// Whatever the input: no panic, decoding stops inside the data, and an
// error carries the bit offset where it happened (an *entity.Error, or the
// bit reader's overflow, or the unread-tail message), inside the data.
func FuzzApply(f *testing.F) {
	base, msgs, why := dotaInGame()
	if base == nil {
		f.Skip(why)
	}
	for i, m := range msgs {
		f.Add(m.EntityData, m.UpdatedEntries, m.IsDelta, m.HasPVSVisBits > 0, uint8(i))
		f.Add(m.EntityData, m.UpdatedEntries, m.IsDelta, m.HasPVSVisBits > 0, uint8(4|i&1)) // memos warm
	}
	f.Add([]byte{}, int32(1), true, false, uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, int32(1<<30), true, false, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, updates int32, delta, pvs bool, mode uint8) {
		m := messages.PacketEntities{
			MaxEntries: entity.MaxEntities, UpdatedEntries: updates, IsDelta: delta,
			EntityData: data,
		}
		if pvs {
			m.HasPVSVisBits = 1
		}
		table := base.Snapshot()
		if mode&6 == 4 {
			// Warm the memos first: the fuzzed updates then meet hot
			// memos and memo slots, which Apply reads on paths of their own.
			for i := range msgs {
				table.Apply(&msgs[i], nil)
			}
		}
		var rec *provenance.Message
		if mode&1 != 0 {
			rec = &provenance.Message{}
		}
		var res entity.Result
		if mode&2 != 0 {
			res = table.ApplyWhatIf(&m, rec, entity.WhatIf{Occurrence: -1, Bit: uint(mode) * 7, Insert: uint(mode>>2) & 7, Skip: uint(mode>>5) & 7})
		} else {
			res = table.Apply(&m, rec)
		}
		bits := uint(len(data)) * 8
		if res.EndBit > bits || res.DataBits != bits {
			t.Fatalf("stopped at bit %d of %d (data bits %d)", res.EndBit, bits, res.DataBits)
		}
		if rec != nil {
			for _, fl := range rec.Fields {
				if fl.Start+fl.Bits > bits {
					t.Fatalf("field %s recorded at bits %d+%d of %d", fl.Name, fl.Start, fl.Bits, bits)
				}
			}
		}
		if res.Err == nil {
			if res.Misaligned && !res.Skipped {
				t.Fatal("misaligned without an error")
			}
			return
		}
		if !res.Misaligned {
			t.Fatalf("error without misalignment: %v", res.Err)
		}
		var ee *entity.Error
		var oe *bitio.OverflowError
		switch {
		case errors.As(res.Err, &ee):
			if ee.Bit > bits {
				t.Fatalf("error at bit %d of %d: %v", ee.Bit, bits, res.Err)
			}
		case errors.As(res.Err, &oe):
			if oe.Pos > bits {
				t.Fatalf("overflow at bit %d of %d: %v", oe.Pos, bits, res.Err)
			}
		default:
			if !strings.Contains(res.Err.Error(), "bit 0x") {
				t.Fatalf("error names no bit offset: %v", res.Err)
			}
		}
	})
}
