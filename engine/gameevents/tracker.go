package gameevents

import (
	"fmt"
	"strconv"
)

// Tracker follows a file's inner messages: it keeps the event list in force
// (the last one sent) and reads each event against it.
type Tracker struct {
	List  *List // the list in force; nil before the file sends one
	Lists int   // lists the file has sent so far
	// Defined is every event name any list has defined, in the order first
	// defined (a list sent again adds only the names it brings).
	Defined []string
	defined map[string]bool
}

// Resolved is an event read against the list in force.
type Resolved struct {
	Event
	// Desc is the list entry that defines the event: nil when the file has
	// sent no list yet (NoList) or the list has no entry of its id.
	Desc   *Descriptor
	NoList bool
}

// Handle reads one inner message: a list replaces the one in force, an
// event is returned read against it (isEvent true); any other type is
// ignored.
func (t *Tracker) Handle(typ uint32, body []byte) (ev Resolved, isEvent bool, err error) {
	switch typ {
	case ListMessage:
		l, err := ParseList(body)
		if err != nil {
			return Resolved{}, false, err
		}
		t.SetList(l)
	case EventMessage:
		ev, err := t.Resolve(body)
		return ev, true, err
	}
	return Resolved{}, false, nil
}

// SetList puts l in force.
func (t *Tracker) SetList(l *List) {
	t.List = l
	t.Lists++
	if t.defined == nil {
		t.defined = map[string]bool{}
	}
	for _, d := range l.Descriptors {
		if !t.defined[d.Name] {
			t.defined[d.Name] = true
			t.Defined = append(t.Defined, d.Name)
		}
	}
}

// Resolve decodes an event message against the list in force.
func (t *Tracker) Resolve(body []byte) (Resolved, error) {
	e, err := ParseEvent(body)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Event: e, Desc: t.List.ByID(e.ID), NoList: t.List == nil}, nil
}

// Name is the event's name: its list entry's, else the one the message
// sends itself, else "" (an event known by its id alone).
func (r *Resolved) Name() string {
	if r.Desc != nil {
		return r.Desc.Name
	}
	if r.HasName {
		return r.Event.Name
	}
	return ""
}

// Label is Name, or "#ID" for an event known by its id alone.
func (r *Resolved) Label() string {
	if n := r.Name(); n != "" {
		return n
	}
	return "#" + strconv.FormatInt(int64(r.ID), 10)
}

// KeyName is the name of value i: its list entry's key name, else its
// position ("0", "1" …).
func (r *Resolved) KeyName(i int) string {
	if r.Desc != nil && i < len(r.Desc.Keys) && r.Desc.Keys[i].Name != "" {
		return r.Desc.Keys[i].Name
	}
	return strconv.Itoa(i)
}

// Declared is the type the list declares for value i (0 for none).
func (r *Resolved) Declared(i int) KeyType {
	if r.Desc != nil && i < len(r.Desc.Keys) {
		return r.Desc.Keys[i].Type
	}
	return 0
}

// Mismatches says where the message differs from its list entry: another
// number of values than the entry has keys, a value tagged with another
// type than its key's, a value held in a field its type does not read.
// None when there is no entry to hold it to.
func (r *Resolved) Mismatches() []string {
	if r.Desc == nil {
		return nil
	}
	var out []string
	if len(r.Keys) != len(r.Desc.Keys) {
		out = append(out, fmt.Sprintf("the list entry has %d keys, the message %d values", len(r.Desc.Keys), len(r.Keys)))
	}
	for i := range min(len(r.Keys), len(r.Desc.Keys)) {
		if k := r.Desc.Keys[i]; r.Keys[i].Type != k.Type {
			out = append(out, fmt.Sprintf("key %s is declared %s, sent as %s", k.Name, k.Type, r.Keys[i].Type))
		}
	}
	for i, v := range r.Keys {
		if f := v.Type.Field(); f != 0 && v.Fields&^(1<<f) != 0 {
			out = append(out, fmt.Sprintf("key %s (%s, read from %s) holds a value in another field", r.KeyName(i), v.Type, keyFieldNames[f]))
		}
	}
	return out
}

// Why says why an event has no list entry, or "" when it has one.
func (r *Resolved) Why() string {
	switch {
	case r.Desc != nil:
		return ""
	case r.NoList:
		return "the file has sent no event list (GE_Source1LegacyGameEventList) before it"
	}
	return fmt.Sprintf("the event list has no entry of id %d", r.ID)
}

// AppendJSON appends the event as one JSON object, the form `dembug events
// --json` prints: {"tick","id","name","keys":{key:value}}, keys in the
// list entry's order; the name null for an event known by its id alone,
// whose keys are named by position.
func (r *Resolved) AppendJSON(b []byte, tick int32) []byte {
	b = append(b, `{"tick":`...)
	b = strconv.AppendInt(b, int64(tick), 10)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(r.ID), 10)
	b = append(b, `,"name":`...)
	if n := r.Name(); n != "" {
		b = appendJSONString(b, n)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"keys":{`...)
	for i, v := range r.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, r.KeyName(i))
		b = append(b, ':')
		b = v.AppendJSON(b)
	}
	return append(b, "}}"...)
}
