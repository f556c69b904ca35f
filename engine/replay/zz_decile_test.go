package replay_test

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

func TestZZDeciles(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	const D = 10
	times := make([][]float64, D)
	fields := make([]int, D)
	cr := make([][]float64, D)
	upd := make([]int, D)
	for it := 0; it < 300; it++ {
		tb := base.Snapshot()
		tb.Own()
		runtime.GC()
		for d := 0; d < D; d++ {
			lo, hi := d*len(msgs)/D, (d+1)*len(msgs)/D
			st := time.Now()
			nf, nu := 0, 0
			for i := lo; i < hi; i++ {
				res := tb.Apply(&msgs[i], nil)
				nf += res.Fields
				nu += res.Updates
			}
			times[d] = append(times[d], float64(time.Since(st).Nanoseconds()))
			fields[d], upd[d] = nf, nu
			cr[d] = append(cr[d], 0)
		}
	}
	tot := 0.0
	for d := 0; d < D; d++ {
		sort.Float64s(times[d])
		med := times[d][len(times[d])/2]
		tot += med
		sort.Float64s(cr[d])
		fmt.Printf("create median %.0f ns  ", cr[d][len(cr[d])/2])
		fmt.Printf("decile %d: %6d fields %6d updates  median %7.0f ns  %5.1f M fields/s  %5.1f ns/update\n", d, fields[d], upd[d], med, float64(fields[d])/med*1e3, med/float64(upd[d]))
	}
	fmt.Printf("total median-sum %.0f ns\n", tot)
}

func TestZZStateSize(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	base := signonEnd(t, data).Entities
	var nodes, vals, valsCap, ents int
	var walk func(n *entity.Node)
	walk = func(n *entity.Node) {
		if n == nil {
			return
		}
		nodes++
		vals += len(n.Vals)
		valsCap += cap(n.Vals)
		for _, k := range n.Kids {
			walk(k)
		}
	}
	for _, e := range base.Entities {
		if e != nil {
			ents++
			walk(e.State)
		}
	}
	fmt.Printf("entities %d nodes %d vals %d cap %d => %d KB\n", ents, nodes, vals, valsCap, valsCap*48/1024)
}

// TestZZAB alternates iterations between the code's two variants (ZZAlt).
func TestZZAB(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	var times [2][]float64
	fieldsN := 0
	for it := 0; it < 2000; it++ {
		v := it & 1
		if it%4 >= 2 {
			v ^= 1
		}
		setAlt(v == 1)
		tb := base.Snapshot()
		tb.Own()
		if !zzNoGC {
			runtime.GC()
		}
		st := time.Now()
		nf := 0
		for i := range msgs {
			res := tb.Apply(&msgs[i], nil)
			nf += res.Fields
			if res.Misaligned {
				t.Fatal(res.Err)
			}
		}
		times[v] = append(times[v], float64(time.Since(st).Nanoseconds()))
		fieldsN = nf
	}
	setAlt(false)
	var ratios []float64
	for i := range times[0] {
		ratios = append(ratios, times[1][i]/times[0][i])
	}
	sort.Float64s(ratios)
	for v := range times {
		sort.Float64s(times[v])
		n := len(times[v])
		fmt.Printf("variant %d: median %.0f ns (%.1f M fields/s)  p10 %.0f  p90 %.0f\n", v, times[v][n/2], float64(fieldsN)/times[v][n/2]*1e3, times[v][n/10], times[v][n*9/10])
	}
	fmt.Printf("B/A per-pair ratio median %.3f  p25 %.3f p75 %.3f\n", ratios[len(ratios)/2], ratios[len(ratios)/4], ratios[len(ratios)*3/4])
}

func TestZZABRec(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	var times [2][]float64
	fieldsN := 0
	for it := 0; it < 1000; it++ {
		v := it & 1
		if it%4 >= 2 {
			v ^= 1
		}
		setAlt(v == 1)
		tb := base.Snapshot()
		tb.Own()
		if !zzNoGC {
			runtime.GC()
		}
		st := time.Now()
		nf := 0
		for i := range msgs {
			res := tb.Apply(&msgs[i], &zzRec)
			nf += res.Fields
			if res.Misaligned {
				t.Fatal(res.Err)
			}
		}
		times[v] = append(times[v], float64(time.Since(st).Nanoseconds()))
		fieldsN = nf
	}
	setAlt(false)
	var ratios []float64
	for i := range times[0] {
		ratios = append(ratios, times[1][i]/times[0][i])
	}
	sort.Float64s(ratios)
	for v := range times {
		sort.Float64s(times[v])
		n := len(times[v])
		fmt.Printf("variant %d: median %.0f ns (%.1f M fields/s)  p10 %.0f  p90 %.0f\n", v, times[v][n/2], float64(fieldsN)/times[v][n/2]*1e3, times[v][n/10], times[v][n*9/10])
	}
	fmt.Printf("B/A per-pair ratio median %.3f  p25 %.3f p75 %.3f\n", ratios[len(ratios)/2], ratios[len(ratios)/4], ratios[len(ratios)*3/4])
}


var zzRec provenance.Message

// TestZZMed prints the median time of ZZN iterations (default 400).
func TestZZMed(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	var times []float64
	for it := 0; it < 400; it++ {
		tb := base.Snapshot()
		tb.Own()
		runtime.GC()
		st := time.Now()
		for i := range msgs {
			tb.Apply(&msgs[i], nil)
		}
		times = append(times, float64(time.Since(st).Nanoseconds()))
	}
	sort.Float64s(times)
	fmt.Printf("ZZMED %.0f %.0f\n", times[len(times)/2], times[len(times)/10])
}

func TestZZProf(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	setAlt(os.Getenv("ZZALT") == "1")
	for it := 0; it < 6000; it++ {
		tb := base.Snapshot()
		tb.Own()
		runtime.GC()
		for i := range msgs {
			tb.Apply(&msgs[i], nil)
		}
	}
}


func TestZZProfRec(t *testing.T) {
	game := os.Getenv("ZZGAME")
	if game == "" {
		t.Skip()
	}
	_, data := testreplays.Read(t, game)
	r := signonEnd(t, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	r.Run(nil)
	base := signonEnd(t, data).Entities
	var rec provenance.Message
	for it := 0; it < 3000; it++ {
		tb := base.Snapshot()
		tb.Own()
		runtime.GC()
		for i := range msgs {
			tb.Apply(&msgs[i], &rec)
		}
	}
}
