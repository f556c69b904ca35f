package replay

import (
	"fmt"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/schema"
)

// Source says where a replay's game was learned and, for a broadcast
// capture, where the capture stops.
type Source struct {
	// GameFrom is "file header" or "svc_ServerInfo" once a game is known;
	// empty while it is not.
	GameFrom string
	// Capture is set for a broadcast capture (no file header; the game
	// comes from svc_ServerInfo).
	Capture bool
	// Stops is, for a capture that has been read to its end, the place
	// just past its last command.
	Stops *Location
}

// GameWhy says in a sentence how the game was learned, or why it is not
// known (the rules of the game dembug falls back to are Dota 2's).
func (r *Replay) GameWhy() string {
	if r.Game != game.Unknown {
		return fmt.Sprintf("%s (from the %s)", r.Game, r.Source.GameFrom)
	}
	why := "no file header"
	if r.Header.GameDirectory != "" || r.Header.Game != "" || r.Header.BuildNum != 0 {
		why = fmt.Sprintf("the file header's game directory %q names no game dembug knows", r.Header.GameDirectory)
	}
	if r.Server.GameDir == "" && r.Server.MaxClasses == 0 {
		why += " and no svc_ServerInfo yet"
	} else {
		why += fmt.Sprintf(" and svc_ServerInfo's game directory %q names none either", r.Server.GameDir)
	}
	return "unknown: " + why + "; decoded with Dota 2's rules"
}

// gameFromHeader takes the game from DEM_FileHeader's game directory.
func (r *Replay) gameFromHeader(h messages.FileHeader) {
	r.Header, r.Game = h, game.Detect(h.GameDirectory)
	if r.Game != game.Unknown {
		r.Source.GameFrom = "file header"
	}
}

// gameFromServer takes the game from svc_ServerInfo's game directory when
// the file header did not name one (a broadcast capture has none). A
// schema already built under the unknown game is built again.
func (r *Replay) gameFromServer(si messages.ServerInfo) error {
	if r.Game != game.Unknown {
		return nil
	}
	g := game.Detect(si.GameDir)
	if g == game.Unknown {
		return nil
	}
	r.Game, r.Source.GameFrom = g, "svc_ServerInfo"
	if r.Schema == nil || r.SchemaData == nil {
		return nil
	}
	// As the main path parses it: lazily, with the interval svc_ServerInfo
	// (just read) gives.
	s, err := schema.ParseLazyWithTick(r.SchemaData, g, r.Aliases, r.Server.TickInterval)
	if err != nil {
		return err
	}
	r.Schema = s
	if r.classes != nil {
		return r.Entities.SetClasses(r.classes, s)
	}
	return nil
}

// captureEnd records where a capture stops.
func (r *Replay) captureEnd(loc Location) {
	loc.Offset = r.cr.Pos()
	r.Source.Stops = &loc
}

// Segments are a capture's fragment files (nil for a .dem file).
func (r *Replay) Segments() []container.Segment { return r.cr.Segments() }

// Place writes a byte offset of the data as the user knows it: "byte N",
// or for a capture "FILE byte N".
func (r *Replay) Place(off int) string { return container.FormatPlace(r.cr.Segments(), off) }

// StopsAt says where a capture stops ("" for a .dem file or a capture not
// read to its end).
func (r *Replay) StopsAt() string {
	s := r.Source.Stops
	if s == nil {
		return ""
	}
	if r.sawStop {
		return fmt.Sprintf("the broadcast ends at %s with its command 0 (command #%d, tick %d)", r.Place(s.Offset), s.Command-1, s.Tick)
	}
	return fmt.Sprintf("the capture stops at %s, after command #%d (tick %d): no later fragment", r.Place(s.Offset), s.Command-1, s.Tick)
}
