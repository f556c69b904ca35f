// Package cut turns a tick window of a replay into a small replay of its
// own: the fixture a parser's test suite can keep.
//
// The cut holds, in order:
//
//   - the original's signon, its string-table creates and its
//     DEM_StringTables snapshot rewritten to the tables as they stand when
//     the window starts (so the instance baselines are those of that
//     moment), and the latest DEM_SendTables and DEM_ClassInfo;
//   - a packet at the tick before the window (the last command decoded
//     before it) carrying the messages that hold state (convars, spawn
//     groups, game-event lists, server info, …; see carry.go) seen between
//     the signon and the window, then a full frame that creates every
//     entity with its whole state as the original holds it there, and the
//     leaves of entities out of view;
//   - the window's commands, byte for byte as the original frames them;
//   - DEM_Stop, the original's DEM_SpawnGroups and its DEM_FileInfo with
//     the playback figures of the cut.
//
// The full frame writes each value with its field's encoder, the exact
// inverse of the decoder on the values it decodes: Cut decodes the frame
// back and requires every entity to equal the original's, floats bit for
// bit. It then decodes the whole cut and compares its last state with the
// original's at the window's end: a difference is state before the window
// that a full frame cannot express, named in a note.
//
// Files:
//
//	cut.go     Cut, Options, Result: the passes over the original
//	write.go   the signon rewrite and the full frame
//	carry.go   which commands and messages before the window carry state
//	verify.go  comparing entity tables
package cut
