package session

import (
	"fmt"
	"strconv"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/stringtable"
)

// TableEntry is one string-table entry a create or update message wrote.
type TableEntry struct {
	Index    int32
	Key      string // "" when the update kept the entry's key
	Class    string // for an instance baseline, the class its key names
	HasValue bool
	Value    int // user-data bytes
}

// TableChange is what one svc_CreateStringTable or svc_UpdateStringTable
// message wrote: the table, its settings, and the entries in the order
// the message has them.
type TableChange struct {
	Table      string
	ID         int // creation order
	Compressed bool
	Settings   string
	Entries    []TableEntry
}

// StringTableChange decodes the string-table message msg of command c.
// An update is decoded with the settings of the create that made its table
// (the id-th create since the last svc_ClearAllStringTables before it).
func (f *File) StringTableChange(ix *Index, c *Command, msg int) (*TableChange, error) {
	return stringTableChange(f.data, ix, c, msg)
}

// stringTableChange is File.StringTableChange over data.
func stringTableChange(data []byte, ix *Index, c *Command, msg int) (*TableChange, error) {
	if msg < 0 || msg >= len(c.Msgs()) {
		return nil, fmt.Errorf("no message #%d", msg)
	}
	body, err := bodyOf(data, c, c.Msgs()[msg].Index)
	if err != nil {
		return nil, err
	}
	var create messages.CreateStringTable
	var entryData []byte
	var n int
	ch := &TableChange{}
	switch c.Msgs()[msg].Name {
	case "svc_CreateStringTable":
		if create, err = messages.ParseCreateStringTable(body); err != nil {
			return nil, err
		}
		if entryData, err = stringtable.Decompress(create.StringData, create.DataCompressed, int(create.UncompressedSize)); err != nil {
			return nil, err
		}
		n, ch.Compressed = int(create.NumEntries), create.DataCompressed
		ch.ID = -1
	case "svc_UpdateStringTable":
		um, err := messages.ParseUpdateStringTable(body)
		if err != nil {
			return nil, err
		}
		ch.ID, entryData, n = int(um.TableID), um.StringData, int(um.NumChangedEntries)
		if create, err = tableCreate(data, ix, c.Index, msg, ch.ID); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s is not a string-table message", c.Msgs()[msg].Name)
	}
	t := &stringtable.Table{Name: create.Name, UserDataFixed: create.UserDataFixedSize, UserDataSize: create.UserDataSize,
		UserDataSizeBits: create.UserDataSizeBits, Flags: create.Flags, VarintBitCounts: create.VarintBitCounts}
	ch.Table = t.Name
	ch.Settings = fmt.Sprintf("user data: fixed %v, %d bits; flags %d; varint bit counts %v", t.UserDataFixed, t.UserDataSizeBits, t.Flags, t.VarintBitCounts)
	// A fresh table holds what this message writes (the key history lives
	// within one message); an entry sent without a key shows none here, as
	// the table's earlier state is not at hand: WalkStringTable has it.
	changed, err := t.Apply(entryData, n)
	var classes map[string]string
	if t.Name == "instancebaseline" {
		classes = classNames(data, ix)
	}
	for _, i := range changed {
		e, _ := t.Get(i)
		ch.Entries = append(ch.Entries, TableEntry{Index: i, Key: e.Key, Class: classes[e.Key], HasValue: e.Value != nil, Value: len(e.Value)})
	}
	return ch, err
}

// classNames maps class ids, written in decimal as instance baselines key
// them, to network names, from the file's first DEM_ClassInfo.
func classNames(data []byte, ix *Index) map[string]string {
	for i := range ix.Commands {
		c := &ix.Commands[i]
		if c.Kind != container.ClassInfo {
			continue
		}
		body, err := bodyOf(data, c, -1)
		if err != nil {
			return nil
		}
		cls, err := messages.ParseClassInfo(body)
		if err != nil {
			return nil
		}
		out := make(map[string]string, len(cls))
		for _, cl := range cls {
			out[strconv.Itoa(int(cl.ID))] = cl.NetworkName
		}
		return out
	}
	return nil
}

// tableCreate finds the svc_CreateStringTable that made table id, as seen
// from message msg of command cmd.
func tableCreate(data []byte, ix *Index, cmd, msg, id int) (messages.CreateStringTable, error) {
	var creates [][2]int
	for i := 0; i <= cmd && i < len(ix.Commands); i++ {
		c := &ix.Commands[i]
		for j := range c.Msgs() {
			if i == cmd && j >= msg {
				break
			}
			switch c.Msgs()[j].Name {
			case "svc_ClearAllStringTables":
				creates = creates[:0]
			case "svc_CreateStringTable":
				creates = append(creates, [2]int{i, j})
			}
		}
	}
	if id < 0 || id >= len(creates) {
		return messages.CreateStringTable{}, fmt.Errorf("update of string table %d, which does not exist (%d tables)", id, len(creates))
	}
	at := creates[id]
	c := &ix.Commands[at[0]]
	body, err := bodyOf(data, c, c.Msgs()[at[1]].Index)
	if err != nil {
		return messages.CreateStringTable{}, err
	}
	return messages.ParseCreateStringTable(body)
}

// HeaderPart is one re-read value of an update header or a deletion list.
type HeaderPart = entity.HeaderPart

// ReadHeader re-reads an update's header (entity.ReadHeader).
func ReadHeader(data []byte, rec *provenance.Message, ui int, classBits uint) []HeaderPart {
	return entity.ReadHeader(data, rec, ui, classBits)
}

// ReadDeletions re-reads a delta message's deletion list
// (entity.ReadDeletions).
func ReadDeletions(data []byte, rec *provenance.Message, max int) []HeaderPart {
	return entity.ReadDeletions(data, rec, max)
}
