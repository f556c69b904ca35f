package session

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"
	"time"

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
