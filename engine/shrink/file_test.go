package shrink

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/writer"
)

// seen decodes a candidate and reports the entities it ever holds, the
// ticks of its commands and its inner messages by type and tick.
type seen struct {
	entities map[int32]string // index → class
	ticks    map[int32]bool
	messages map[[2]int64]int // {type, tick} → count
	total    int              // inner messages in the game
	data     []byte
}

func look(t *testing.T, data []byte) *seen {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatalf("a candidate does not open: %v", err)
	}
	s := &seen{entities: map[int32]string{}, ticks: map[int32]bool{}, messages: map[[2]int64]int{}, data: data}
	r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		for _, e := range r.Entities.Entities {
			if e != nil && e.Class != nil {
				s.entities[e.Index] = e.Class.Name
			}
		}
	}
	game := false
	r.Hooks.Inner = func(loc replay.Location, m *messages.Inner) {
		if game {
			s.messages[[2]int64{int64(m.Type), int64(loc.Tick)}]++
			s.total++
		}
	}
	for {
		c, err := r.Step()
		if err != nil {
			break
		}
		if game && c.Kind != container.Stop && c.Kind != container.FileInfo && c.Kind != container.SpawnGroups {
			s.ticks[c.Tick] = true
		}
		game = game || c.Kind.EndsSignon()
	}
	return s
}

func shrinkWith(t *testing.T, data []byte, fails func(s *seen) bool) *Result {
	t.Helper()
	res, err := Shrink(context.Background(), data, Options{Jobs: 2, Test: func(_ context.Context, cand []byte) (bool, []byte) {
		return fails(look(t, cand)), []byte("tested\n")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Minimal {
		t.Fatalf("the search did not end")
	}
	return res
}

// A test failing while a given entity is in the file finds exactly it: a
// full frame of that one entity.
func TestShrinkFindsTheEntity(t *testing.T) {
	data := writer.Generate()
	all := look(t, data)
	var idx int32 = -1
	var class string
	for i, c := range all.entities {
		if idx < 0 || i > idx {
			idx, class = i, c
		}
	}
	res := shrinkWith(t, data, func(s *seen) bool { return s.entities[idx] == class })
	got := look(t, res.Data)
	if len(got.entities) != 1 || got.entities[idx] != class {
		t.Fatalf("shrunk to entities %v, want only %d (%s); %s", got.entities, idx, class, strings.Join(res.Remains(), "; "))
	}
	if len(res.Data) >= len(data) {
		t.Fatalf("%d bytes, the original %d", len(res.Data), len(data))
	}
	// Its instance baseline stays: the entity is created from it.
	el := res.Cut.Elements
	kept := false
	for _, fe := range el.Frame {
		if fe.Index != idx {
			continue
		}
		for i, e := range el.Entries {
			if el.Tables[e.Table] == "instancebaseline" && el.Keys[i] == strconv.Itoa(int(fe.ClassID)) {
				kept = !res.Drop.Entries[e]
			}
		}
	}
	if !kept {
		t.Errorf("the instance baseline of entity %d's class was dropped", idx)
	}
	t.Logf("%d → %d bytes in %d tests: %s", len(data), len(res.Data), res.Tests, strings.Join(res.Remains(), "; "))
}

// A test failing while the original's command at a given tick is in the
// file (its bytes, as a parser failing on that packet sees them) finds a
// window of that tick alone.
func TestShrinkFindsTheTick(t *testing.T) {
	data := writer.Generate()
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	raw := map[int32][]byte{}
	var ticks []int32
	for {
		c, err := cr.Next()
		if err != nil || c.Kind == container.Stop {
			break
		}
		if c.Kind == container.Packet && c.Tick > 0 && raw[c.Tick] == nil {
			raw[c.Tick] = data[c.BodyOffset:c.End()]
			ticks = append(ticks, c.Tick)
		}
	}
	for _, want := range []int32{ticks[0], ticks[len(ticks)/2], ticks[len(ticks)-1]} {
		res := shrinkWith(t, data, func(s *seen) bool { return bytes.Contains(s.data, raw[want]) })
		if res.Cut == nil || res.Cut.First != want || res.Cut.Last != want || res.Cut.Commands != 1 {
			t.Fatalf("tick %d: shrunk to %s", want, strings.Join(res.Remains(), "; "))
		}
	}
}

// A test failing while a given message (type and tick) is in the file
// finds it alone among the window's messages.
func TestShrinkFindsTheMessage(t *testing.T) {
	data := writer.Generate()
	all := look(t, data)
	var want [2]int64
	for k, n := range all.messages {
		if n == 1 && k[0] != int64(messages.SvcPacketEntities) && k[1] > want[1] {
			want = k
		}
	}
	if want[1] == 0 {
		t.Fatal("the sample has no message that occurs once")
	}
	res := shrinkWith(t, data, func(s *seen) bool { return s.messages[want] > 0 })
	got := look(t, res.Data)
	if got.messages[want] != 1 || res.Cut.First != int32(want[1]) || res.Cut.Last != int32(want[1]) {
		t.Fatalf("message %v: shrunk to %v (%s)", want, got.messages, strings.Join(res.Remains(), "; "))
	}
	// the window's other messages are gone where the file stays valid
	if got.total > all.total/2 {
		t.Errorf("%d of %d messages remain", got.total, all.total)
	}
}

// A test that passes on the original is refused.
func TestShrinkNothingToShrink(t *testing.T) {
	_, err := Shrink(context.Background(), writer.Generate(), Options{Test: func(context.Context, []byte) (bool, []byte) { return false, nil }})
	if !errors.Is(err, ErrPasses) {
		t.Fatalf("err %v, want ErrPasses", err)
	}
}

// damage appends two zero bytes to the entity data of the last packet
// with entity updates: its decode ends before its data does.
func damage(t *testing.T, data []byte) ([]byte, int32) {
	t.Helper()
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var at int32 = -1
	for {
		c, err := cr.Next()
		if err != nil || c.Kind == container.Stop {
			break
		}
		if c.Kind == container.Packet && c.Tick > 0 {
			if pd, err := messages.PacketData(c.Body); err == nil {
				if inner, _, err := messages.SplitInner(pd, nil, nil); err == nil {
					for _, m := range inner {
						if pe, err := messages.ParsePacketEntities(m.Body); err == nil && m.Type == messages.SvcPacketEntities && pe.UpdatedEntries >= 1 {
							at = c.Tick
						}
					}
				}
			}
		}
	}
	out, err := writer.RewriteCommands(data, func(c container.Command) []writer.Command {
		same := []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: c.Body, Compressed: c.Compressed}}
		if c.Kind != container.Packet || c.Tick != at {
			return same
		}
		pd, _ := messages.PacketData(c.Body)
		inner, _, _ := messages.SplitInner(pd, nil, nil)
		var msgs []writer.Inner
		for _, m := range inner {
			body := bytes.Clone(m.Body)
			if m.Type == messages.SvcPacketEntities {
				pe, _ := messages.ParsePacketEntities(body)
				pe.EntityData = append(bytes.Clone(pe.EntityData), 0, 0)
				body = writer.PacketEntitiesBody(pe)
			}
			msgs = append(msgs, writer.Inner{Type: m.Type, Body: body})
		}
		return []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: writer.PacketBody(writer.Packet(msgs...)), Compressed: c.Compressed}}
	})
	if err != nil || at < 0 {
		t.Fatalf("no packet to damage (%v)", err)
	}
	return out, at
}

// misaligned is how dembug's decode of data first misaligns ("" for not).
func misaligned(data []byte) string {
	r, err := replay.Open(data)
	if err != nil {
		return "does not open"
	}
	r.Run(nil)
	if r.FirstMisaligned == nil {
		return ""
	}
	return r.FirstMisaligned.Err.Error()
}

// A replay with a damaged packet and a test failing on any misalignment:
// the shrunk file keeps the damaged packet and fails in dembug as the
// original does (its entities left out, the packet would name entities
// that do not exist: a misalignment the shrink made, not the original's).
func TestShrinkKeepsTheDamage(t *testing.T) {
	for name, data := range map[string][]byte{"dota2": writer.Generate(), "cs2": writer.GenerateCS2()} {
		bad, at := damage(t, data)
		want := misaligned(bad)
		if want == "" {
			t.Fatalf("%s: the damage at tick %d does not misalign", name, at)
		}
		res, err := Shrink(context.Background(), bad, Options{Jobs: 2, Test: func(_ context.Context, cand []byte) (bool, []byte) {
			return misaligned(cand) != "", nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		if got := misaligned(res.Data); got != want || res.Cut == nil || res.Cut.Last != at {
			t.Fatalf("%s: the shrunk file ends at tick %d and misaligns with %q; the original at tick %d with %q (%s)", name, res.Cut.Last, got, at, want, strings.Join(res.Remains(), "; "))
		}
		if len(res.Data) >= len(bad) {
			t.Errorf("%s: %d bytes of %d", name, len(res.Data), len(bad))
		}
	}
}
