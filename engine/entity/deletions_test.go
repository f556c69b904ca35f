package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
)

func TestDeletionListPerGame(t *testing.T) {
	for g, want := range map[game.Game]bool{game.Dota2: true, game.Unknown: true, game.CS2: false, game.Deadlock: false} {
		if got := HasDeletionList(g); got != want {
			t.Errorf("%s: deletion list %v, want %v", g, got, want)
		}
	}
}
