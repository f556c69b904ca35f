package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/internal/testreplays"
)

// Limits the hostile-input test holds every case to.
const (
	hostileCaseLimit   = 10 * time.Second // one decode; a real one takes well under a second
	hostileMemoryLimit = 256 << 20        // peak heap growth during one decode
	hostileFlips       = 500
)

// boundaries returns the byte offset of every command of data, and the end
// of the last one.
func boundaries(t *testing.T, data []byte) []int {
	t.Helper()
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for {
		c, err := cr.Next()
		if err == io.EOF {
			return append(out, cr.Pos())
		}
		if err != nil {
			t.Fatalf("framing the intact replay: %v", err)
		}
		out = append(out, c.Offset)
	}
}

// hostileCase is one damaged copy of the replay.
type hostileCase struct {
	name string
	cut  int // truncation length, or -1
	flip int // bit to flip (byte*8+bit), or -1
	// wantCommands is how many commands must decode before the damage
	// (-1: not known in advance).
	wantCommands int
}

func (c hostileCase) data(orig []byte) []byte {
	if c.cut >= 0 {
		return orig[:c.cut]
	}
	b := bytes.Clone(orig)
	b[c.flip/8] ^= 1 << (c.flip % 8)
	return b
}

// checkLocated checks that a damaged file's errors say where: every error
// names a byte offset, and past the header the command and tick; a
// misaligned packet-entities message is located down to its message and
// entity-data bit.
func checkLocated(res CheckResult) error {
	if e := res.Error; e != "" {
		if !strings.Contains(e, "byte ") {
			return fmt.Errorf("error names no byte offset: %s", e)
		}
		if !strings.Contains(e, "header:") && (!strings.Contains(e, "command #") || !strings.Contains(e, "tick ")) {
			return fmt.Errorf("error names no command and tick: %s", e)
		}
	}
	if res.Misaligned > 0 {
		m := res.FirstMisaligned
		for _, want := range []string{"byte ", "command #", "tick ", "message #", "bit 0x"} {
			if !strings.Contains(m, want) {
				return fmt.Errorf("first misaligned lacks %q: %s", want, m)
			}
		}
	}
	return nil
}

// peakGrowth runs fn while sampling the heap and returns the largest heap
// growth seen over the heap before it.
func peakGrowth(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > base && s.HeapAlloc-base > peak.Load() {
				peak.Store(s.HeapAlloc - base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > base && ms.HeapAlloc-base > peak.Load() {
		peak.Store(ms.HeapAlloc - base)
	}
	return peak.Load()
}

// A replay cut or corrupted anywhere must decode what comes before the
// damage and report located errors: never panic, hang or balloon. The Dota 2
// replay is cut at every 4 KiB and at every command boundary and one byte
// either side, and has single bits flipped at 500 random positions.
func TestTruncatedAndCorruptReplays(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	start := time.Now()
	full, _ := CheckOnly(path, data)
	if full.Error != "" || full.Misaligned != 0 {
		t.Fatalf("intact replay: %s %s", full.Error, full.FirstMisaligned)
	}
	bounds := boundaries(t, data)

	var cases []hostileCase
	for cut := 0; cut < len(data); cut += 4096 {
		cases = append(cases, hostileCase{name: fmt.Sprintf("cut at %d", cut), cut: cut, flip: -1, wantCommands: -1})
	}
	for k, b := range bounds {
		for d := -1; d <= 1; d++ {
			cut := b + d
			if cut < 0 || cut >= len(data) {
				continue
			}
			want := k // commands 0..k-1 are whole
			if d < 0 {
				want = k - 1
			}
			if cut < container.HeaderSize {
				want = 0
			}
			cases = append(cases, hostileCase{name: fmt.Sprintf("cut at %d (command #%d boundary %+d)", cut, k, d), cut: cut, flip: -1, wantCommands: want})
		}
	}
	nCuts := len(cases)
	rng := rand.New(rand.NewSource(7))
	for range hostileFlips {
		bit := rng.Intn(len(data) * 8)
		cases = append(cases, hostileCase{name: fmt.Sprintf("bit %d of byte %d flipped", bit%8, bit/8), cut: -1, flip: bit, wantCommands: -1})
	}

	var (
		mu      sync.Mutex
		slowest time.Duration
		slowAt  string
		failed  []string
		flipErr atomic.Int64 // flips that stopped the decode with an error
		flipMis atomic.Int64 // flips that misaligned a packet-entities message
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		failed = append(failed, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	run := func(c hostileCase) {
		defer func() {
			if p := recover(); p != nil {
				fail("%s: panic: %v", c.name, p)
			}
		}()
		t0 := time.Now()
		res, _ := CheckOnly(path, c.data(data))
		d := time.Since(t0)
		mu.Lock()
		if d > slowest {
			slowest, slowAt = d, c.name
		}
		mu.Unlock()
		if d > hostileCaseLimit {
			fail("%s: took %v", c.name, d)
		}
		if err := checkLocated(res); err != nil {
			fail("%s: %v", c.name, err)
		}
		if c.cut >= 0 {
			if res.Error == "" {
				fail("%s: no error reported", c.name)
			}
			if c.wantCommands >= 0 && res.Commands != c.wantCommands {
				fail("%s: decoded %d commands, want the %d before the cut", c.name, res.Commands, c.wantCommands)
			}
		}
		if c.flip >= 0 && res.Error != "" {
			flipErr.Add(1)
		}
		if c.flip >= 0 && res.Misaligned > 0 {
			flipMis.Add(1)
		}
		if res.Commands > full.Commands {
			fail("%s: decoded %d commands, more than the whole file's %d", c.name, res.Commands, full.Commands)
		}
	}
	work := make(chan hostileCase)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				run(c)
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
	for i, f := range failed {
		if i == 20 {
			t.Errorf("… and %d more", len(failed)-20)
			break
		}
		t.Error(f)
	}

	// Memory, one decode at a time: the largest cuts and a few flips.
	var maxGrowth uint64
	var maxAt string
	memCases := []hostileCase{
		{name: "cut one byte short", cut: len(data) - 1, flip: -1},
		{name: "cut at the last command", cut: bounds[len(bounds)-2], flip: -1},
		{name: "intact", cut: len(data), flip: -1},
	}
	for i := 0; i < 5; i++ {
		memCases = append(memCases, cases[nCuts+i*hostileFlips/5])
	}
	for _, c := range memCases {
		d := c.data(data)
		g := peakGrowth(func() { CheckOnly(path, d) })
		if g > maxGrowth {
			maxGrowth, maxAt = g, c.name
		}
		if g > hostileMemoryLimit {
			t.Errorf("%s: heap grew %d MiB during the decode (limit %d MiB)", c.name, g>>20, hostileMemoryLimit>>20)
		}
	}
	t.Logf("%d cases (%d truncations, %d bit flips: %d stopped with an error, %d misaligned entities) in %v; slowest %v (%s); peak heap growth %.1f MiB (%s)",
		len(cases), nCuts, len(cases)-nCuts, flipErr.Load(), flipMis.Load(), time.Since(start).Round(time.Millisecond),
		slowest.Round(time.Millisecond), slowAt, float64(maxGrowth)/(1<<20), maxAt)
}

// The real command line on truncated files: exit status 1, one summary line
// per file on stdout, and exactly one line on stderr for each damaged file
// (none for an intact one), naming the file and where it broke.
func TestCheckCommandOnTruncatedFiles(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	bounds := boundaries(t, data)
	dir := t.TempDir()
	cuts := map[string]int{
		"header.dem":   10,
		"mid-body.dem": len(data) / 2,
		"boundary.dem": bounds[len(bounds)/2],
		"last.dem":     len(data) - 1,
	}
	var args []string
	for name, cut := range cuts {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	for _, files := range [][]string{{args[0]}, append([]string{path}, args...)} {
		var out, errw bytes.Buffer
		cmd := Root(&out, &errw)
		cmd.SetArgs(append([]string{"check"}, files...))
		err := cmd.Execute()
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != 1 {
			t.Fatalf("check %v: want exit status 1, got %v", files, err)
		}
		// (a file aligned may add lines of what its values show, the rerun
		// they suggest, and how the public parsers read it)
		if n := strings.Count(out.String(), "\n") - strings.Count(out.String(), ": values: ") - strings.Count(out.String(), ": rerun with: ") - strings.Count(out.String(), ": parsers: "); n != len(files) {
			t.Errorf("check %v: %d summary lines, want %d:\n%s", files, n, len(files), out.String())
		}
		lines := strings.Split(strings.TrimSuffix(errw.String(), "\n"), "\n")
		for _, f := range files {
			n := 0
			for _, l := range lines {
				if strings.HasPrefix(l, f+": ") {
					n++
					if !strings.HasPrefix(l, f+": error: byte ") {
						t.Errorf("stderr line does not locate the damage: %s", l)
					}
				}
			}
			if want := map[bool]int{true: 0, false: 1}[f == path]; n != want {
				t.Errorf("%s: %d stderr lines, want %d; stderr:\n%s", f, n, want, errw.String())
			}
		}
		if len(lines) != len(files)-map[bool]int{true: 1, false: 0}[files[0] == path] {
			t.Errorf("stderr has %d lines for %d damaged files:\n%s", len(lines), len(files), errw.String())
		}
	}
}
