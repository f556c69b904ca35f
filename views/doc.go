// Package views holds dembug's pure rendering functions: each takes data and
// a size and returns a string, with no terminal state, so every view can be
// golden-tested and composed freely by the TUI layer.
//
// Files:
//
//	theme.go      Theme (dark, light, no colour) and painting
//	frame.go      width, fitting and padding; Box, Block, JoinColumns, ScrollTop
//	plural.go     Count: "1 field", "3 fields"
//	timeline.go   the timeline pane (Timeline, TimelineRow)
//	fields.go     the field table of an update (FieldTable)
//	entity.go     an entity's full state (Entity)
//	schema.go     a class's serializer tree (Schema)
//	wiretree.go   a message body as protobuf fields (WireTree)
//	hexbits.go    the hex and bit dump with highlighted spans (HexBits)
//	inspector.go  the inspector pane: sections of styled lines (Inspector)
//	anomaly.go    Severity and its marks and styles
//	anomalies.go  the anomaly list modal (AnomalyList)
//	compare.go    another parser's read beside ours (CompareSection)
//	whatif.go     the what-if diff table, the picker, Overlay
//	help.go       the help screen and the status bar
//	cut.go        the report of a tick window written as a replay (CutReport)
package views
