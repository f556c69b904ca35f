// Package game names the Source 2 games dembug knows and detects which one
// wrote a replay, so that per-game tables (message names, decoder choice) can
// be picked once at start-up.
package game

import "strings"

// Game is a Source 2 title. The zero value is Unknown.
type Game uint8

const (
	Unknown Game = iota
	Dota2
	CS2
	Deadlock
)

func (g Game) String() string {
	switch g {
	case Dota2:
		return "dota2"
	case CS2:
		return "cs2"
	case Deadlock:
		return "deadlock"
	}
	return "unknown"
}

// Detect maps the file header's game_directory (for example
// "/opt/srcds/dota/dota" or "csgo") to a game. Valve writes a path whose last
// element is the mod folder, so only that element is compared.
func Detect(gameDirectory string) Game {
	dir := strings.ToLower(strings.TrimRight(strings.ReplaceAll(gameDirectory, "\\", "/"), "/"))
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[i+1:]
	}
	switch dir {
	case "dota":
		return Dota2
	case "csgo", "cs2":
		return CS2
	case "citadel":
		return Deadlock
	}
	return Unknown
}
