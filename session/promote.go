package session

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/schema"
)

// ValueChanges decodes data under aliases a and under b side by side, tick
// by tick, and counts the reads whose value differs between the two
// readings (or that only one makes), of all the reads either makes. Reads
// are matched within a tick by entity, baseline or not, field path and
// which of that entity's reads of the path it is. Memory stays at a tick's
// reads on each side.
func ValueChanges(data []byte, a, b schema.Aliases) (changed, total int, err error) {
	type tickReads struct {
		tick  int64
		reads []compare.Read
	}
	run := func(al schema.Aliases, out chan<- tickReads, errc chan<- error) {
		defer close(out)
		defer func() {
			if p := recover(); p != nil {
				errc <- fmt.Errorf("internal error: %v", p)
			}
		}()
		errc <- compare.Decode(data, al, nil, func(tick int64, reads []compare.Read) {
			out <- tickReads{tick, slices.Clone(reads)} // the slice is reused
		})
	}
	ca, cb := make(chan tickReads, 4), make(chan tickReads, 4)
	ea, eb := make(chan error, 2), make(chan error, 2)
	go run(a, ca, ea)
	go run(b, cb, eb)
	ta, oka := <-ca
	tb, okb := <-cb
	for oka || okb {
		switch {
		case oka && okb && ta.tick == tb.tick:
			c, n := diffTick(ta.reads, tb.reads)
			changed, total = changed+c, total+n
			ta, oka = <-ca
			tb, okb = <-cb
		case oka && (!okb || ta.tick < tb.tick):
			changed, total = changed+len(ta.reads), total+len(ta.reads)
			ta, oka = <-ca
		default:
			changed, total = changed+len(tb.reads), total+len(tb.reads)
			tb, okb = <-cb
		}
	}
	for _, e := range []error{<-ea, <-eb} {
		if e != nil && err == nil {
			err = e
		}
	}
	return changed, total, err
}

// diffTick counts one tick's reads that differ between the two readings,
// and the reads in all (matched pairs once).
func diffTick(a, b []compare.Read) (changed, total int) {
	key := func(r *compare.Read, nth map[string]int) string {
		k := fmt.Sprint(r.Entity, r.Baseline, r.Path)
		n := nth[k]
		nth[k] = n + 1
		return fmt.Sprint(k, "#", n)
	}
	nth := map[string]int{}
	av := make(map[string][]byte, len(a))
	for i := range a {
		av[key(&a[i], nth)] = a[i].Value
	}
	nth = map[string]int{}
	for i := range b {
		k := key(&b[i], nth)
		v, ok := av[k]
		if !ok || !bytes.Equal(v, b[i].Value) {
			changed++
		}
		delete(av, k)
		total++
	}
	return changed + len(av), total + len(av)
}
