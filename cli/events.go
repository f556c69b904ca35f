package cli

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// TickWindow is a closed range of demo ticks (--tick A..B); an open end
// is unbounded.
type TickWindow struct {
	From, To       int64
	HasFrom, HasTo bool
}

// ParseTickWindow reads "A..B", "A..", "..B" or "N" (the one tick N).
func ParseTickWindow(s string) (TickWindow, error) {
	var w TickWindow
	if s == "" {
		return w, nil
	}
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		b = a
	}
	var err error
	if a != "" {
		if w.From, err = strconv.ParseInt(strings.TrimSpace(a), 10, 32); err != nil {
			return w, fmt.Errorf("--tick %q: %q is not a tick (A..B, A.., ..B or N)", s, a)
		}
		w.HasFrom = true
	}
	if b != "" {
		if w.To, err = strconv.ParseInt(strings.TrimSpace(b), 10, 32); err != nil {
			return w, fmt.Errorf("--tick %q: %q is not a tick (A..B, A.., ..B or N)", s, b)
		}
		w.HasTo = true
	}
	if w.HasFrom && w.HasTo && w.From > w.To {
		return w, fmt.Errorf("--tick %q: the window ends before it starts", s)
	}
	return w, nil
}

// Holds says whether tick t is in the window.
func (w TickWindow) Holds(t int64) bool {
	return (!w.HasFrom || t >= w.From) && (!w.HasTo || t <= w.To)
}

// EventsOptions are the events command's flags.
type EventsOptions struct {
	Names  []string // only these events (a name, or #ID for an event known by id)
	Window TickWindow
	JSON   bool
	Count  bool
}

// eventTally is one row of --count: an event the list defines (or, without
// a list entry, an id) and how often it occurs.
type eventTally struct {
	name  string // "" for an event known by its id alone
	id    int32
	count int
}

// WriteEvents decodes data and prints its game events (errw takes the
// notes: no event list, events before it, a name no list defines, a broken
// event message). A broken event message is reported and skipped, and
// makes the result an exit-1 error once the file is done.
func WriteEvents(w, errw io.Writer, path string, data []byte, o EventsOptions) error {
	var r *session.Pass
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	var tr gameevents.Tracker
	wanted := map[string]bool{}
	for _, n := range o.Names {
		wanted[n] = true
	}
	counts := map[string]*eventTally{} // by label
	var byID []*eventTally             // events counted without a list entry, in order seen
	var line []byte
	seen, beforeList, broken := 0, 0, 0
	inner := func(l session.Location, m *messages.Inner) {
		if m.Type != gameevents.ListMessage && m.Type != gameevents.EventMessage {
			return
		}
		ev, isEvent, err := tr.Handle(m.Type, m.Body)
		if err != nil {
			broken++
			fmt.Fprintf(errw, "dembug: %s: %s, command #%d, tick %d, message #%d: %v (skipped)\n", path, r.Place(l.Offset), l.Command, l.Tick, l.Message, err)
			return
		}
		if !isEvent || !o.Window.Holds(int64(l.Tick)) {
			return
		}
		label := ev.Label()
		if len(wanted) > 0 && !wanted[label] && !wanted["#"+strconv.FormatInt(int64(ev.ID), 10)] {
			return
		}
		seen++
		if ev.NoList {
			beforeList++
		}
		if o.Count {
			c := counts[label]
			if c == nil {
				c = &eventTally{name: ev.Name(), id: ev.ID}
				counts[label] = c
				if ev.Desc == nil {
					byID = append(byID, c)
				}
			}
			c.count++
			return
		}
		if o.JSON {
			line = append(ev.AppendJSON(line[:0], l.Tick), '\n')
		} else {
			line = appendEventText(line[:0], l.Tick, &ev)
		}
		bw.Write(line)
	}
	r, err := session.OpenFile(data, schema.Aliases{}).Pass(session.Visitor{Inner: inner})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var game inGame
	var runErr error
	for {
		if next, ok := r.NextTick(); o.Window.HasTo && ok && bool(game) && int64(next) > o.Window.To {
			break
		}
		c, err := r.Step()
		if err == io.EOF {
			break
		}
		if err != nil {
			runErr = err
			break
		}
		game.after(c.Kind)
	}
	if o.Count {
		writeEventCounts(bw, &tr, counts, byID, o)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	eventNotes(errw, path, &tr, o, seen, beforeList)
	if runErr != nil {
		return fmt.Errorf("%s: %w", path, runErr)
	}
	if broken > 0 {
		return &ExitError{Code: 1}
	}
	return nil
}

// eventNotes tells what the output alone cannot: that the file sends no
// list (so events are ids), that some events came before it, and which
// --name no list defines.
func eventNotes(errw io.Writer, path string, tr *gameevents.Tracker, o EventsOptions, seen, beforeList int) {
	switch {
	case tr.Lists == 0:
		fmt.Fprintf(errw, "dembug: note: %s: the file sends no game event list (GE_Source1LegacyGameEventList, message %d): events are given by id (#ID) and their values by position\n", path, gameevents.ListMessage)
	case beforeList > 0:
		fmt.Fprintf(errw, "dembug: note: %s: %d events come before the file's game event list and are given by id\n", path, beforeList)
	}
	if tr.Lists == 0 {
		return
	}
	for _, n := range o.Names {
		if strings.HasPrefix(n, "#") || slices.Contains(tr.Defined, n) {
			continue
		}
		msg := fmt.Sprintf("dembug: note: %s: the file's event list defines no event %q", path, n)
		if s := closestName(n, tr.Defined); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		fmt.Fprintln(errw, msg)
	}
}

// closestName is the defined name nearest to n by edit distance, if one is
// near; else the first that holds n.
func closestName(n string, names []string) string {
	best, bestD := "", len(n)/3+2
	for _, c := range names {
		if d := editDistance(n, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	for _, c := range names {
		if strings.Contains(c, n) {
			return c
		}
	}
	return ""
}

// writeEventCounts prints every event the lists define (those --name
// names by name or #ID, when given) with its count, zeros included, in list order; then
// the events no list entry defines, by id.
func writeEventCounts(w *bufio.Writer, tr *gameevents.Tracker, counts map[string]*eventTally, byID []*eventTally, o EventsOptions) {
	var rows []*eventTally
	for _, n := range tr.Defined {
		c := counts[n]
		if c == nil {
			c = &eventTally{name: n}
			if d := tr.List.ByName(n); d != nil {
				c.id = d.ID
			}
		}
		if len(o.Names) > 0 && !slices.Contains(o.Names, n) && !slices.Contains(o.Names, "#"+strconv.FormatInt(int64(c.id), 10)) {
			continue
		}
		rows = append(rows, c)
	}
	rows = append(rows, byID...)
	var line []byte
	for _, c := range rows {
		line = line[:0]
		if o.JSON {
			line = append(line, `{"name":`...)
			if c.name == "" {
				line = append(line, "null"...)
				line = append(line, `,"id":`...)
				line = strconv.AppendInt(line, int64(c.id), 10)
			} else {
				line = appendJSONString(line, c.name)
			}
			line = append(line, `,"count":`...)
			line = strconv.AppendInt(line, int64(c.count), 10)
			line = append(line, "}\n"...)
		} else {
			line = fmt.Appendf(line, "%8d  %s\n", c.count, tallyLabel(c))
		}
		w.Write(line)
	}
}

func tallyLabel(c *eventTally) string {
	if c.name == "" {
		return "#" + strconv.FormatInt(int64(c.id), 10)
	}
	return c.name
}

// appendEventText writes one event as a line: tick, name (or #ID), then
// each key as name=value (values by position without a list entry).
func appendEventText(b []byte, tick int32, ev *gameevents.Resolved) []byte {
	b = fmt.Appendf(b, "%7d  %s", tick, ev.Label())
	for i, v := range ev.Keys {
		b = append(b, ' ')
		b = append(b, ev.KeyName(i)...)
		b = append(b, '=')
		b = append(b, v.Text()...)
	}
	return append(b, '\n')
}

func eventsCmd() *cobra.Command {
	var o EventsOptions
	var window string
	cmd := &cobra.Command{
		Use:   "events FILE",
		Short: "Print the file's game events by name, read against its own event list",
		Long: "events prints every game event (GE_Source1LegacyGameEvent) of the file, named and with\n" +
			"its keys named from the file's own event list (GE_Source1LegacyGameEventList): one line\n" +
			"per event, or with --json one object per event, {\"tick\",\"id\",\"name\",\"keys\":{key:value}}.\n" +
			"--count prints every event the list defines with how often it occurs, zeros included.\n" +
			"A file without a list says so and gives events by id (#ID).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.Window, err = ParseTickWindow(window); err != nil {
				return err
			}
			data, err := readFile(args[0])
			if err != nil {
				return err
			}
			return WriteEvents(cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], data, o)
		},
	}
	cmd.Flags().StringSliceVar(&o.Names, "name", nil, "only events of this name (repeatable, or comma-separated; #ID names an event by its id)")
	cmd.Flags().StringVar(&window, "tick", "", "only events in this window of demo ticks: A..B, A.., ..B or N")
	cmd.Flags().BoolVar(&o.JSON, "json", false, `one JSON object per event: {"tick","id","name","keys":{key:value}}; with --count {"name","count"}`)
	cmd.Flags().BoolVar(&o.Count, "count", false, "every event the list defines with its count in the file (or the window), zeros included")
	return cmd
}
