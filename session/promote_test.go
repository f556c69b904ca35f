package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// One reading against itself changes nothing; an alias that reads a type
// another way changes the values of its fields (and no more than all).
func TestValueChanges(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	c, n, err := valueChanges(context.Background(), data, schema.Aliases{}, schema.Aliases{})
	if err != nil || c != 0 || n < 1000 {
		t.Fatalf("same readings: %d of %d changed, %v", c, n, err)
	}
	a, err := schema.ParseAliases([]string{"GameTime_t=uint32"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	c2, n2, err := valueChanges(context.Background(), data, schema.Aliases{}, a)
	if c2 == 0 || c2 > n2 || n2 < n {
		t.Fatalf("GameTime_t as uint32: %d of %d changed (%v)", c2, n2, err)
	}
}

// A count whose context ends stops both decodes and says so, rather than
// running the whole file on (the debugger's superseded P did, for minutes
// on a long replay).
func TestValueChangesStops(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	a, err := schema.ParseAliases([]string{"float32=uint32"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, _, err = valueChanges(ctx, data, schema.Aliases{}, a)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Fatalf("a cancelled count: %v after %v", err, time.Since(start))
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, _, err := valueChanges(ctx, data, schema.Aliases{}, a); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a count past its deadline: %v", err)
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines left running, %d before", n, before)
	}
}

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
		c, n, err := valueChanges(context.Background(), data, schema.Aliases{}, a)
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

// On a full-length replay the count takes seconds (9 s measured for the
// 100 MB one on the shared two-core machine; it took 352 s matching by tick
// with string keys). The bound leaves room for a loaded machine.
func TestValueChangesLong(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 100 MB replay")
	}
	path := testreplays.Long(t, 100)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := schema.ParseAliases([]string{"float32=uint32"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	c, n, err := valueChanges(ctx, data, schema.Aliases{}, a)
	if err != nil || c == 0 || n < 1_000_000 {
		t.Fatalf("%d of %d values change, %v, after %v", c, n, err, time.Since(start))
	}
	t.Logf("%d of %d values change, in %v", c, n, time.Since(start))
}
