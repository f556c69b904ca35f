package session_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/session"
)

// (Outside the package: compare decodes through session's pass runner.)

// Read by message, the count is what a plain count by tick gives (every
// read of each reading, matched within a tick by entity, baseline, path and
// which read of the path it is), under aliases that change some values,
// misalign or change none.
func TestValueChangesCountsAsByTick(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	for _, as := range []string{"float32=uint32", "GameTime_t=uint32", "CNetworkedQuantizedFloat=float32"} {
		a, err := schema.ParseAliases([]string{as}, game.Unknown)
		if err != nil {
			t.Fatal(err)
		}
		c, n, err := session.OpenFile(data, schema.Aliases{}).ValueChanges(context.Background(), schema.Aliases{}, a)
		wc, wn := countByTick(t, data, schema.Aliases{}, a)
		if err != nil || c != wc || n != wn {
			t.Errorf("%s: %d of %d change (%v), by tick %d of %d", as, c, n, err, wc, wn)
		}
	}
}

// countByTick counts as ValueChanges did before it matched by message: the
// whole decodes' reads, tick by tick, keyed by strings.
func countByTick(t *testing.T, data []byte, a, b schema.Aliases) (changed, total int) {
	byTick := func(al schema.Aliases) map[int64][]compare.Read {
		reads, err := compare.Ours(data, al, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int64][]compare.Read{}
		for _, r := range reads {
			m[r.Tick] = append(m[r.Tick], r)
		}
		return m
	}
	ta, tb := byTick(a), byTick(b)
	keys := func(reads []compare.Read) map[string]string {
		nth, out := map[string]int{}, map[string]string{}
		for _, r := range reads {
			k := fmt.Sprint(r.Entity, r.Baseline, r.Path)
			out[fmt.Sprint(k, "#", nth[k])] = string(r.Value)
			nth[k]++
		}
		return out
	}
	for tick, ra := range ta {
		ka, kb := keys(ra), keys(tb[tick])
		for k, v := range ka {
			if w, ok := kb[k]; !ok || w != v {
				changed++
			}
			total++
		}
		for k := range kb {
			if _, ok := ka[k]; !ok {
				changed++
				total++
			}
		}
	}
	for tick, rb := range tb {
		if _, ok := ta[tick]; !ok {
			changed, total = changed+len(rb), total+len(rb)
		}
	}
	return changed, total
}
