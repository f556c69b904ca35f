package msgnames

import (
	"strconv"

	"github.com/dembug/dembug/engine/game"
)

// Name returns the message's name for game g, and ok=false when the id is not
// known for that game. It does not allocate.
func Name(g game.Game, id uint32) (name string, ok bool) {
	m := byGame[game.Unknown]
	if int(g) < len(byGame) {
		m = byGame[g]
	}
	name, ok = m[id]
	return name, ok
}

// Display returns Name, or "unknown(N)" when the id is not known for g.
func Display(g game.Game, id uint32) string {
	if name, ok := Name(g, id); ok {
		return name
	}
	return "unknown(" + strconv.FormatUint(uint64(id), 10) + ")"
}

// numGames is one past the highest game.Game value this package knows.
const numGames = int(game.Deadlock) + 1

// byGame[g] holds the common tables merged with g's own tables.
var byGame [numGames]map[uint32]string

func init() {
	byGame, _ = build()
}

// conflict records an id that two tables visible to the same game both claim.
type conflict struct {
	game        game.Game
	id          uint32
	kept, other string
}

// build merges the tables into one map per game. The first table listed wins
// an id; every later claim on it is reported as a conflict (the tests require
// there to be none).
func build() (maps [numGames]map[uint32]string, conflicts []conflict) {
	for g := range numGames {
		m := make(map[uint32]string, 512)
		add := func(t table) {
			for _, e := range t.entries {
				if prev, dup := m[e.id]; dup {
					conflicts = append(conflicts, conflict{game.Game(g), e.id, prev, e.name})
					continue
				}
				m[e.id] = e.name
			}
		}
		for _, t := range commonTables {
			add(t)
		}
		for _, t := range gameTables[g] {
			add(t)
		}
		maps[g] = m
	}
	return maps, conflicts
}
