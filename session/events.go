package session

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/wiretree"
)

// EventInfo is a game event (GE_Source1LegacyGameEvent) as the index pass
// read it against the event list in force there.
type EventInfo struct {
	Cmd   int32 // command index
	Inner int32 // the message's inner index in its packet
	ID    int32
	Label string // the event's name, or #ID without a list entry
	// List is the list in force (nil before the file sends one) and Entry
	// the position of the entry that defines the event, -1 for none.
	List  *gameevents.List
	Entry int
	// Mismatches says where the types the message tags its values with,
	// or their number, differ from the entry's (none: as declared).
	Mismatches []string
	Err        error // the message did not decode
}

// Why says why the event has no list entry ("" when it has one).
func (e *EventInfo) Why() string {
	switch {
	case e.Desc() != nil || e.Err != nil:
		return ""
	case e.List == nil:
		return "the file has sent no event list (GE_Source1LegacyGameEventList) before it"
	}
	return fmt.Sprintf("the event list has no entry of id %d", e.ID)
}

// Desc is the list entry that defines the event, or nil.
func (e *EventInfo) Desc() *gameevents.Descriptor {
	if e == nil || e.List == nil || e.Entry < 0 || e.Entry >= len(e.List.Descriptors) {
		return nil
	}
	return &e.List.Descriptors[e.Entry]
}

// event notes a list or an event message of the index pass.
func (ix *Indexer) event(loc replay.Location, m *messages.Inner) {
	ev, isEvent, err := ix.events.Handle(m.Type, m.Body)
	if !isEvent && err == nil {
		return
	}
	info := EventInfo{Cmd: int32(loc.Command), Inner: int32(m.Index), Entry: -1, List: ix.events.List, Err: err}
	if err != nil {
		if !isEvent {
			return // a broken list: the one before stays in force
		}
		info.Label = "(does not decode)"
		ix.evOut = append(ix.evOut, info)
		return
	}
	info.ID, info.Label, info.Mismatches = ev.ID, ev.Label(), ev.Mismatches()
	if ev.Desc != nil {
		info.Entry = ev.Desc.Index
	}
	ix.evOut = append(ix.evOut, info)
}

// Event is the game event at command cmd's message of inner index inner,
// or nil when that message is no event.
func (ix *Index) Event(cmd, inner int) *EventInfo {
	i := sort.Search(len(ix.Events), func(i int) bool {
		e := &ix.Events[i]
		return int(e.Cmd) > cmd || int(e.Cmd) == cmd && int(e.Inner) >= inner
	})
	if i < len(ix.Events) && int(ix.Events[i].Cmd) == cmd && int(ix.Events[i].Inner) == inner {
		return &ix.Events[i]
	}
	return nil
}

// EventRef is the Ref of event e's message (Msg -1 when the index does
// not list it yet), no update.
func (ix *Index) EventRef(e *EventInfo) Ref {
	return Ref{int(e.Cmd), ix.msgByInner(int(e.Cmd), int(e.Inner)), -1, -1}
}

// EventWireRows names an event's wire rows from its list entry: the
// eventid's value gets the event's name, and each key_t (field 3, by
// position) the key's name and declared type, as "keys userid (player)".
func EventWireRows(rows []WireRow, e *EventInfo) []WireRow {
	if e == nil {
		return rows
	}
	d := e.Desc()
	key := 0
	for i := range rows {
		r := &rows[i]
		if r.Depth != 0 {
			continue
		}
		switch r.Field {
		case 2:
			r.Value += " (" + e.Label + ")"
		case 3:
			if d != nil && key < len(d.Keys) {
				r.Name = fmt.Sprintf("keys %s (%s)", d.Keys[key].Name, d.Keys[key].Type)
			} else {
				r.Name = fmt.Sprintf("keys #%d", key)
			}
			key++
		}
	}
	return rows
}

// EventKeysText lists an entry's keys as "name type, …".
func EventKeysText(d *gameevents.Descriptor) string {
	if len(d.Keys) == 0 {
		return "no keys"
	}
	parts := make([]string, len(d.Keys))
	for i, k := range d.Keys {
		parts[i] = k.Name + " " + k.Type.String()
	}
	return strings.Join(parts, ", ")
}

// The wire tree's names for the list and the event (engine/gameevents).
func init() {
	keyType := func(n wiretree.Node) string {
		return fmt.Sprintf("%d (%s)", int32(n.Varint), gameevents.KeyType(int32(n.Varint)))
	}
	wireMessages["GE_Source1LegacyGameEventList"] = wireNames{
		1: {name: "descriptors", kids: wireNames{
			1: {name: "eventid", show: asInt32}, 2: {name: "name"},
			3: {name: "keys", kids: wireNames{1: {name: "type", show: keyType}, 2: {name: "name"}}},
		}},
	}
	wireMessages["GE_Source1LegacyGameEvent"] = wireNames{
		1: {name: "event_name"}, 2: {name: "eventid", show: asInt32},
		3: {name: "keys", kids: wireNames{
			1: {name: "type", show: keyType}, 2: {name: "val_string"}, 3: {name: "val_float", show: asFloat},
			4: {name: "val_long", show: asInt32}, 5: {name: "val_short", show: asInt32}, 6: {name: "val_byte", show: asInt32},
			7: {name: "val_bool", show: asBool}, 8: {name: "val_uint64", show: asUint64},
		}},
		4: {name: "server_tick", show: asInt32}, 5: {name: "passthrough", show: asInt32},
	}
}

func asUint64(n wiretree.Node) string { return fmt.Sprint(n.Varint) }

// EventName reports whether a game event's name matches, as a class name
// does.
func (m *Matcher) EventName(name string) bool { return m.Class(name) }
