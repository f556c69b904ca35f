package cut

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/msgnames"
)

// statefulMessages are the network messages whose effect outlasts their
// tick: a reader that starts after them needs them. The cut carries the
// ones seen between the signon and the window into its state packet.
// Entity and string-table messages are not here: the full frame and the
// rewritten tables hold their effect.
var statefulMessages = map[string]bool{
	"net_SetConVar":                  true,
	"net_SpawnGroup_Load":            true,
	"net_SpawnGroup_ManifestUpdate":  true,
	"net_SpawnGroup_SetCreationTick": true,
	"net_SpawnGroup_Unload":          true,
	"net_SpawnGroup_LoadCompleted":   true,
	"svc_ServerInfo":                 true,
	"svc_FlattenedSerializer":        true,
	"svc_ClassInfo":                  true,
	"svc_VoiceInit":                  true,
	"svc_SetView":                    true,
	"svc_SplitScreen":                true,
	"svc_HLTVStatus":                 true,
	"svc_ServerSteamID":              true,
	"svc_CmdKeyValues":               true,
	"GE_Source1LegacyGameEventList":  true,
}

// foldedMessages are carried by what the cut rewrites: the string tables
// as they stand and the full frame.
var foldedMessages = map[uint32]bool{
	messages.NetTick:                 true,
	messages.SvcCreateStringTable:    true,
	messages.SvcUpdateStringTable:    true,
	messages.SvcClearAllStringTables: true,
	messages.SvcPacketEntities:       true,
}

// before sorts what the commands before the window hold: what the cut
// carries, what it folds into its tables and frame, what it leaves out
// (events of the past) and what it cannot judge.
type before struct {
	messages []messages.Inner // stateful messages to carry, in order (bodies copied)
	commands []stored         // stateful commands to carry (DEM_AnimationHeader, …)
	carried  map[string]int   // what was carried, by name
	past     map[string]int   // left out: events that happened before the window
	unknown  map[string]int   // left out: types dembug does not know
	// the latest schema and class list, which replace the signon's
	sendTables, classInfo *stored
}

func newBefore() *before {
	return &before{carried: map[string]int{}, past: map[string]int{}, unknown: map[string]int{}}
}

// message sorts one inner message of an in-game command before the window,
// named as game g names it.
func (b *before) message(g game.Game, m *messages.Inner) {
	if foldedMessages[m.Type] {
		return
	}
	name, ok := msgnames.Name(g, m.Type)
	switch {
	case !ok:
		b.unknown[msgnames.Display(g, m.Type)]++
	case statefulMessages[name]:
		b.messages = append(b.messages, messages.Inner{Type: m.Type, Body: slices.Clone(m.Body)})
		b.carried[name]++
	default:
		b.past[name]++
	}
}

// command sorts one in-game command before the window; packets' messages
// go through message.
func (b *before) command(c *container.Command, raw []byte) {
	s := func() *stored {
		st := newStored(c, raw, false)
		return &st
	}
	switch c.Kind {
	case container.SpawnGroups:
		if c.Broadcast {
			b.unknown["DEM_SpawnGroups in a capture's framing (not protobuf)"]++
			return
		}
		b.commands = append(b.commands, *s())
		b.carried[c.Kind.String()]++
	case container.Packet, container.SignonPacket, container.FullPacket, container.StringTables, container.SyncTick:
		// their messages were sorted; the tables are rewritten
	case container.SendTables:
		b.sendTables = s()
		b.carried[c.Kind.String()]++
	case container.ClassInfo:
		b.classInfo = s()
		b.carried[c.Kind.String()]++
	case container.AnimationHeader:
		b.commands = append(b.commands, *s())
		b.carried[c.Kind.String()]++
	case container.ConsoleCmd, container.CustomData, container.CustomDataCallbacks, container.UserCmd,
		container.AnimationData, container.SaveGame, container.Recovery:
		b.past[c.Kind.String()]++
	default:
		b.unknown[c.Kind.String()]++
	}
}

// notes are the sentences the cut says of what came before the window.
func (b *before) notes(from int32) (carried string, notes []string) {
	if len(b.carried) > 0 {
		carried = fmt.Sprintf("carried from before tick %d: %s", from, counts(b.carried))
	}
	if len(b.unknown) > 0 {
		notes = append(notes, fmt.Sprintf("not carried from before tick %d, as dembug does not know whether they hold state: %s", from, counts(b.unknown)))
	}
	return carried, notes
}

// pastText says what was left out as events of the past.
func (b *before) pastText() string { return counts(b.past) }

// counts spells a tally as "name ×n, …" in name order.
func counts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s ×%d", n, m[n])
	}
	return strings.Join(parts, ", ")
}
