package diagnose_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// dropBit returns data without bit at (later bits move down one; the last
// byte ends in a zero bit).
func dropBit(data []byte, at uint) []byte {
	out := make([]byte, len(data))
	n := uint(len(data)) * 8
	get := func(i uint) byte { return data[i/8] >> (i % 8) & 1 }
	for i := uint(0); i+1 < n; i++ {
		b := get(i)
		if i >= at {
			b = get(i + 1)
		}
		out[i/8] |= b << (i % 8)
	}
	return out
}

// messagesOf lists the locations of a replay's packet-entities messages.
func messagesOf(t *testing.T, data []byte) []replay.Location {
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	var locs []replay.Location
	r.Hooks.Entities = func(loc replay.Location, m *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
		if !res.Skipped && len(m.EntityData) > 0 {
			locs = append(locs, loc)
		}
	}
	if err := r.Run(func(*container.Command) bool { return false }); err != nil {
		t.Fatal(err)
	}
	return locs
}

// dropCase is a replay's message with one bit dropped from its entity data.
type dropCase struct {
	file string
	at   replay.Location
	bit  uint
}

// TestDroppedBitsAreLocatedAndRepaired drops one random bit from 40
// packet-entities messages of the Dota 2 and CS2 replays (fixed seed, the
// first message of each replay among them) and searches each for the
// repair. Located: the field blamed holds the dropped bit or starts at
// most 64 bits after it. Repaired: the what-if decodes every value of the
// message as the intact message does.
func TestDroppedBitsAreLocatedAndRepaired(t *testing.T) {
	dir := testreplays.Require(t)
	files := []string{"dota2/auto-20240102-2233.dem", "cs2/14160.dem", "cs2/14011.dem"}
	seed := int64(20261203)
	if s, err := strconv.ParseInt(os.Getenv("DROP_SEED"), 10, 64); err == nil {
		seed = s // other draws, for measuring; the test's floors hold for the default
	}
	rng := rand.New(rand.NewSource(seed))
	datas := map[string][]byte{}
	var cases []dropCase
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Skip(err)
		}
		datas[f] = data
		locs := messagesOf(t, data)
		// The first (full-frame) message, then others at random.
		picks := []replay.Location{locs[0], locs[0], locs[0]}
		for len(picks) < 14 {
			picks = append(picks, locs[rng.Intn(len(locs))])
		}
		for _, at := range picks {
			cases = append(cases, dropCase{file: f, at: at})
		}
	}
	cases = cases[:40]
	located, repaired, tried := 0, 0, 0
	for i := range cases {
		c := &cases[i]
		intact, err := diagnose.CaptureAt(datas[c.file], c.at)
		if err != nil {
			t.Fatal(err)
		}
		bits := uint(len(intact.Msg.EntityData)) * 8
		broken := *intact
		var res entity.Result
		for try := 0; ; try++ {
			c.bit = uint(rng.Int63n(int64(intact.Record.EndBit)))
			broken.Msg.EntityData = dropBit(intact.Msg.EntityData, c.bit)
			res, broken.Record, broken.Report = broken.Try(entity.WhatIf{Occurrence: -1})
			if res.Misaligned || res.Err != nil || try > 20 {
				break
			}
		}
		if !res.Misaligned && res.Err == nil {
			continue // this drop decodes aligned: nothing to find
		}
		tried++
		fix, err := broken.Locate()
		if err != nil {
			t.Logf("%s tick %d message %d (%d bits): bit %d dropped: %v", c.file, c.at.Tick, c.at.Message, bits, c.bit, err)
			continue
		}
		// The field blamed, in the damaged message's bits.
		recs := broken.Record
		if fix.WhatIf.Decoder == nil {
			recs = fix.Record
		}
		ok := false
		if fix.Field >= 0 && fix.Field < len(recs.Fields) {
			f := recs.Fields[fix.Field]
			start, end := f.Op.Start, f.Start+f.Bits
			if fix.WhatIf.Decoder == nil && start > fix.WhatIf.Bit {
				// the repaired record counts the inserted bit
				start, end = start-fix.WhatIf.Insert+fix.WhatIf.Skip, end-fix.WhatIf.Insert+fix.WhatIf.Skip
			}
			ok = start <= c.bit && c.bit < end || start > c.bit && start <= c.bit+64
		}
		if ok {
			located++
		}
		same := len(fix.Record.Fields) == len(intact.Record.Fields)
		for j := 0; same && j < len(fix.Record.Fields); j++ {
			same = fix.Record.Fields[j].Value.Equal(intact.Record.Fields[j].Value) && fix.Record.Fields[j].Name == intact.Record.Fields[j].Name
		}
		if same {
			repaired++
		} else if os.Getenv("DROP_DEBUG") != "" {
			for j := 0; j < len(fix.Record.Fields) && j < len(intact.Record.Fields); j++ {
				a, b := fix.Record.Fields[j], intact.Record.Fields[j]
				if !a.Value.Equal(b.Value) || a.Name != b.Name {
					t.Logf("   first difference: field %d %s=%v @%d, intact %s=%v @%d (of %d/%d)", j, a.Name, a.Value, a.Start, b.Name, b.Value, b.Start, len(fix.Record.Fields), len(intact.Record.Fields))
					break
				}
			}
		}
		t.Logf("%s tick %d message %d (%d bits): bit %d dropped: located %v, repaired %v: %s", c.file, c.at.Tick, c.at.Message, bits, c.bit, ok, same, fix.Explain)
	}
	t.Logf("%d drops that misalign: %d located, %d repaired exactly", tried, located, repaired)
	// Issue 14 asks for 95% located and 80% repaired.
	if tried < 35 || located*100 < tried*95 || repaired*100 < tried*80 {
		t.Fatalf("%d drops: %d located (want ≥ 95%%), %d repaired exactly (want ≥ 80%%)", tried, located, repaired)
	}
}
