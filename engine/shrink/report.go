package shrink

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/msgnames"
	"github.com/dembug/dembug/engine/replay"
)

// Remains says what the shrunk file holds, a line each: the window's
// ticks and commands, their messages by type, the full frame's entities by
// class and the fields they write over their class baselines.
func (r *Result) Remains() []string {
	c, d := r.Cut, r.Drop
	if c == nil {
		return []string{"the whole original (no cut of it fails)"}
	}
	var lines []string
	if c.Elements == nil || d == nil {
		return []string{fmt.Sprintf("ticks %d–%d: %d commands", c.First, c.Last, c.Commands)}
	}
	g := gameOf(r.Data)
	kinds, types := map[string]int{}, map[string]int{}
	for i, wc := range c.Elements.Window {
		if d.Commands[i] {
			continue
		}
		kinds[wc.Kind.String()]++
		for j, t := range wc.Messages {
			if !d.Messages[cut.MessageRef{Command: i, Message: j}] {
				types[msgnames.Display(g, t)]++
			}
		}
	}
	lines = append(lines, fmt.Sprintf("ticks %d–%d: %d commands (%s)", c.First, c.Last, c.Commands, tally(kinds)))
	lines = append(lines, "their messages: "+tally(types))
	if c.StateTick < 0 {
		return append(lines, "no full frame: the window starts with the game", entriesLine(c.Elements, d))
	}
	classes := map[string]int{}
	fields := 0
	for _, fe := range c.Elements.Frame {
		if d.Entities[fe.Index] {
			continue
		}
		classes[fe.Class]++
		for k := range fe.Fields {
			if !d.Fields[cut.FieldRef{Entity: fe.Index, Field: k}] {
				fields++
			}
		}
	}
	lines = append(lines, fmt.Sprintf("full frame at tick %d: %d entities (%s), %d fields over their class baselines", c.StateTick, c.Entities, tally(classes), fields))
	return append(lines, entriesLine(c.Elements, d))
}

// gameOf is the game data's header names.
func gameOf(data []byte) game.Game {
	r, err := replay.Open(data)
	if err != nil {
		return game.Game(0)
	}
	for range 3 {
		if r.Header.GameDirectory != "" {
			break
		}
		if _, err := r.Step(); err != nil {
			break
		}
	}
	return r.Game
}

// tally spells counts as "name ×n, …", most first.
func tally(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s ×%d", n, m[n])
	}
	return strings.Join(parts, ", ")
}

// LastLine is the last non-empty line of a test's output.
func LastLine(out []byte) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n\r \t"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return ""
}

// entriesLine says how many string-table entries remain, by table.
func entriesLine(el *cut.Elements, d *cut.Drop) string {
	tables := map[string]int{}
	n := 0
	for _, e := range el.Entries {
		if !d.Entries[e] {
			tables[el.Tables[e.Table]]++
			n++
		}
	}
	return fmt.Sprintf("string tables: %d of %d entries (%s)", n, len(el.Entries), tally(tables))
}
