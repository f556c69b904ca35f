package shrink

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"sync"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Options steer Shrink.
type Options struct {
	Jobs    int // candidates tested at once
	Aliases schema.Aliases
	// Test runs the user's test on a candidate: fails when it fails the
	// way the original does; out is what it printed. It is called from
	// Jobs goroutines at once.
	Test func(ctx context.Context, data []byte) (fails bool, out []byte)
	// Progress, when set, is told of every candidate tested.
	Progress func(Progress)
}

// Progress is the state of a search after a test.
type Progress struct {
	Stage    string // "window", "commands", "messages", "entities", "fields", "string-table entries"
	Tests    int    // candidates tested
	Size     int    // bytes of the candidate just tested
	Smallest int    // bytes of the smallest failing file so far
}

// Result is the smallest failing file found.
type Result struct {
	Data []byte
	// Cut is the cut Data is (nil when no cut fails: Data is the
	// original); Drop what it leaves out of the window's cut.
	Cut  *cut.Result
	Drop *cut.Drop
	// Output is what the test printed on Data.
	Output []byte
	Tests  int
	// Minimal says the search ended: removing any one remaining element
	// makes the test pass. False when the context ended it first.
	Minimal bool
	// Note says why the search could not start (every cut passes).
	Note string
}

// ErrPasses is a test that passes on the original: nothing to shrink.
var ErrPasses = errors.New("the test passes on the original: nothing to shrink")

type outcome struct {
	fails bool
	out   []byte
}

// shrinker holds a search's state: the smallest failing file so far and
// every candidate's outcome by its bytes.
type shrinker struct {
	opt      Options
	s        Searcher
	stage    string
	mu       sync.Mutex
	seen     map[[32]byte]outcome
	tests    int
	smallest int
	// baseFail is how dembug's decode of the window's cut fails in its
	// last command ("" when it decodes cleanly): a candidate that leaves
	// something out must fail there the same way, or it would be a file
	// the shrink broke.
	baseFail string
	strict   bool
}

// test runs the user's test on data once (a file already tested is
// answered from memory).
func (sh *shrinker) test(ctx context.Context, data []byte) outcome {
	sum := sha256.Sum256(data)
	sh.mu.Lock()
	o, ok := sh.seen[sum]
	sh.mu.Unlock()
	if ok {
		return o
	}
	fails, out := sh.opt.Test(ctx, data)
	o = outcome{fails, out}
	if ctx.Err() != nil {
		return outcome{} // cut short: says nothing, and is not remembered
	}
	sh.mu.Lock()
	sh.seen[sum] = o
	sh.tests++
	if fails && len(data) < sh.smallest {
		sh.smallest = len(data)
	}
	p := Progress{Stage: sh.stage, Tests: sh.tests, Size: len(data), Smallest: sh.smallest}
	sh.mu.Unlock()
	if sh.opt.Progress != nil {
		sh.opt.Progress(p)
	}
	return o
}

// Shrink searches for the smallest cut of data that still fails the
// test: first the window (its first tick, then its last, bisected), then
// the window's commands, the packets' messages, the full frame's
// entities, the entities' fields and the string tables' entries (delta debugging), again until a
// round removes nothing. When ctx ends it returns the smallest failing
// file so far. ErrPasses: the test passes on data itself.
func Shrink(ctx context.Context, data []byte, opt Options) (*Result, error) {
	sh := &shrinker{opt: opt, s: Searcher{Jobs: opt.Jobs}, seen: map[[32]byte]outcome{}, smallest: len(data), stage: "original"}
	orig := sh.test(ctx, data)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !orig.fails {
		return nil, ErrPasses
	}
	res := &Result{Data: data, Output: orig.out}
	defer func() { res.Tests = sh.tests }()
	ticks, err := gameTicks(data)
	if err != nil || len(ticks) == 0 {
		res.Note = "the file has no game commands to cut"
		return res, nil
	}

	// The window: its first tick as late as it fails, from there to the
	// end; then its last tick as early as it fails.
	sh.stage = "window"
	cutFails := func(ctx context.Context, src []byte, from, to int32) bool {
		r, ok := sh.cut(src, from, to, nil)
		return ok && sh.test(ctx, r.Data).fails
	}
	if !cutFails(ctx, data, ticks[0], -1) {
		if ctx.Err() != nil {
			return res, nil
		}
		res.Note = fmt.Sprintf("the test passes on the cut of the whole game (from tick %d): what fails is in what a cut rewrites (the signon, the string tables, the file's end), which shrink cannot take apart", ticks[0])
		return res, nil
	}
	i := sh.s.Bisect(ctx, 0, len(ticks)-1, func(ctx context.Context, x int) bool {
		return cutFails(ctx, data, ticks[x], -1)
	})
	from := ticks[i]
	tail, ok := sh.cut(data, from, -1, nil)
	if !ok {
		return res, nil // cannot be: it failed the test as a cut
	}
	res.Data, res.Cut = tail.Data, tail
	rest := ticks[i:]
	j := len(rest) - 1 - sh.s.Bisect(ctx, 0, len(rest)-1, func(ctx context.Context, x int) bool {
		return cutFails(ctx, tail.Data, from, rest[len(rest)-1-x])
	})
	to := rest[j]
	base, ok := sh.cut(tail.Data, from, to, &cut.Drop{})
	if !ok {
		return res, nil // cannot be: it failed the test as a cut
	}
	res.Data, res.Cut, res.Drop = base.Data, base, &cut.Drop{}
	sh.baseFail, _ = endFailure(base.Data, base.Last, opt.Aliases)
	sh.strict = true
	if o := sh.remembered(base.Data); o != nil {
		res.Output = o.out
	}
	if ctx.Err() != nil {
		return res, nil
	}

	// Inside the window: delta debugging over each kind of element, round
	// after round until one removes nothing.
	d := &cut.Drop{Commands: map[int]bool{}, Messages: map[cut.MessageRef]bool{}, Entities: map[int32]bool{}, Fields: map[cut.FieldRef]bool{}, Entries: map[cut.EntryRef]bool{}}
	el := base.Elements
	src := tail.Data // base cut again: the same file, with what d drops
	try := func(ctx context.Context, cand *cut.Drop) bool {
		r, ok := sh.cut(src, from, to, cand)
		return ok && sh.test(ctx, r.Data).fails
	}
	for round := 0; ctx.Err() == nil; round++ {
		changed := false
		for _, st := range stages(el) {
			sh.stage = st.name
			elems := st.present(d)
			if len(elems) == 0 {
				continue
			}
			kept := sh.s.DDMin(ctx, elems, func(ctx context.Context, keep []int) bool {
				return try(ctx, st.dropAllBut(d, elems, keep))
			})
			if len(kept) < len(elems) {
				// The search's sets all failed; its answer is one of them.
				*d = *st.dropAllBut(d, elems, kept)
				changed = true
			}
		}
		if !changed {
			res.Minimal = ctx.Err() == nil
			break
		}
	}
	final, ok := sh.cut(src, from, to, d)
	if !ok {
		return res, nil
	}
	res.Data, res.Cut, res.Drop = final.Data, final, d
	if o := sh.remembered(final.Data); o != nil {
		res.Output = o.out
	}
	return res, nil
}

func (sh *shrinker) remembered(data []byte) *outcome {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if o, ok := sh.seen[sha256.Sum256(data)]; ok {
		return &o
	}
	return nil
}

// cut cuts src's window from…to without what d drops; false when the cut
// cannot be written or does not decode as a valid file: cleanly, or
// failing (as the original's window does) only in its last command.
func (sh *shrinker) cut(src []byte, from, to int32, d *cut.Drop) (res *cut.Result, ok bool) {
	// A candidate the writer or the decoder cannot take is no candidate,
	// never a stack trace.
	defer func() {
		if p := recover(); p != nil {
			res, ok = nil, false
		}
	}()
	res, err := cut.Cut(src, cut.Options{From: from, To: to, Aliases: sh.opt.Aliases, Drop: d})
	if err != nil {
		return nil, false
	}
	if res.Stopped == nil && res.Ended == nil {
		return res, true // Cut decoded it to its end, cleanly
	}
	fail, ok := endFailure(res.Data, res.Last, sh.opt.Aliases)
	if sh.strict && fail != sh.baseFail {
		return res, false // it fails, but not as the window's cut does
	}
	return res, ok
}

// endFailure decodes data and says how its first failure (an error or a
// misaligned message) reads, and whether it is in a command at tick last,
// the cut's last.
func endFailure(data []byte, last int32, aliases schema.Aliases) (string, bool) {
	r, err := replay.Open(data)
	if err != nil {
		return "", false
	}
	r.Aliases = aliases
	for {
		cmd, err := r.Step()
		if err == io.EOF {
			return "", true
		}
		if m := r.FirstMisaligned; m != nil {
			return m.Err.Error(), m.Loc.Tick == last
		}
		if err != nil {
			var re *replay.Error
			if errors.As(err, &re) {
				return re.Err.Error(), cmd.Tick == last
			}
			return err.Error(), cmd.Tick == last
		}
	}
}

// gameTicks are the distinct ticks of the game's commands, in order.
func gameTicks(data []byte) ([]int32, error) {
	cr, err := container.NewReader(data)
	if err != nil {
		return nil, err
	}
	var ticks []int32
	game := false
	for {
		c, err := cr.Next()
		if err == io.EOF || c.Kind == container.Stop {
			break
		}
		if err != nil {
			break // the rest cannot be framed: cut only what can
		}
		if !game {
			game = c.Kind.EndsSignon()
			if !game || c.Kind == container.SyncTick {
				continue
			}
		}
		if c.Tick >= 0 && (len(ticks) == 0 || c.Tick > ticks[len(ticks)-1]) {
			ticks = append(ticks, c.Tick)
		}
	}
	return ticks, nil
}

// stage is one kind of element delta debugging removes.
type stage struct {
	name string
	// present lists the elements d does not drop (as numbers).
	present func(d *cut.Drop) []int
	// dropAllBut is d that also drops every element of elems not in keep.
	dropAllBut func(d *cut.Drop, elems, keep []int) *cut.Drop
}

func clone(d *cut.Drop) *cut.Drop {
	return &cut.Drop{Commands: maps.Clone(d.Commands), Messages: maps.Clone(d.Messages), Entities: maps.Clone(d.Entities), Fields: maps.Clone(d.Fields), Entries: maps.Clone(d.Entries)}
}

// removed is elems without keep (both in order).
func removed(elems, keep []int) []int {
	var out []int
	k := 0
	for _, e := range elems {
		if k < len(keep) && keep[k] == e {
			k++
			continue
		}
		out = append(out, e)
	}
	return out
}

// stages are the kinds of element of a window, in the order they are
// searched.
func stages(el *cut.Elements) []stage {
	// Messages and fields are numbered by their place in a flat list.
	var msgs []cut.MessageRef
	for i, wc := range el.Window {
		for j := range wc.Messages {
			msgs = append(msgs, cut.MessageRef{Command: i, Message: j})
		}
	}
	var fields []cut.FieldRef
	for _, fe := range el.Frame {
		for k := range fe.Fields {
			fields = append(fields, cut.FieldRef{Entity: fe.Index, Field: k})
		}
	}
	return []stage{
		{"commands",
			func(d *cut.Drop) []int {
				var out []int
				for i := range el.Window {
					if !d.Commands[i] {
						out = append(out, i)
					}
				}
				return out
			},
			func(d *cut.Drop, elems, keep []int) *cut.Drop {
				n := clone(d)
				for _, i := range removed(elems, keep) {
					n.Commands[i] = true
				}
				return n
			}},
		{"messages",
			func(d *cut.Drop) []int {
				var out []int
				for i, m := range msgs {
					if !d.Commands[m.Command] && !d.Messages[m] {
						out = append(out, i)
					}
				}
				return out
			},
			func(d *cut.Drop, elems, keep []int) *cut.Drop {
				n := clone(d)
				for _, i := range removed(elems, keep) {
					n.Messages[msgs[i]] = true
				}
				return n
			}},
		{"entities",
			func(d *cut.Drop) []int {
				// An entity a kept message of the window updates stays:
				// without it the window does not decode.
				touched := map[int32]bool{}
				for _, t := range el.Touches {
					if !d.Commands[t.Message.Command] && !d.Messages[t.Message] {
						touched[t.Entity] = true
					}
				}
				var out []int
				for i, fe := range el.Frame {
					if !d.Entities[fe.Index] && !touched[fe.Index] {
						out = append(out, i)
					}
				}
				return out
			},
			func(d *cut.Drop, elems, keep []int) *cut.Drop {
				n := clone(d)
				for _, i := range removed(elems, keep) {
					n.Entities[el.Frame[i].Index] = true
				}
				return n
			}},
		{"fields",
			func(d *cut.Drop) []int {
				var out []int
				for i, f := range fields {
					if !d.Entities[f.Entity] && !d.Fields[f] {
						out = append(out, i)
					}
				}
				return out
			},
			func(d *cut.Drop, elems, keep []int) *cut.Drop {
				n := clone(d)
				for _, i := range removed(elems, keep) {
					n.Fields[fields[i]] = true
				}
				return n
			}},
		{"string-table entries",
			func(d *cut.Drop) []int {
				// An instance baseline an entity kept in the frame is
				// created from is referred to: it stays.
				used := map[string]bool{}
				for _, fe := range el.Frame {
					if !d.Entities[fe.Index] {
						used[strconv.Itoa(int(fe.ClassID))] = true
					}
				}
				var out []int
				for i, e := range el.Entries {
					if !d.Entries[e] && !(el.Tables[e.Table] == "instancebaseline" && used[el.Keys[i]]) {
						out = append(out, i)
					}
				}
				return out
			},
			func(d *cut.Drop, elems, keep []int) *cut.Drop {
				n := clone(d)
				for _, i := range removed(elems, keep) {
					n.Entries[el.Entries[i]] = true
				}
				return n
			}},
	}
}
