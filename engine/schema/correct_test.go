package schema

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
)

// built is a field through every step of decoder choice Parse takes.
func built(f *Field, a Aliases, g game.Game) *Field {
	applyAliases(f, a)
	applyCorrection(f, g, a.Seed)
	patchField(f, g)
	chooseModel(f, g)
	markUnknown(f, g)
	return f
}

// Each correction reads its type as the game writes it, in simple
// fields, fixed arrays and vector elements alike; the seed's reading
// leaves it to the fallback, unknown, as before.
func TestCorrectionsReadTheGamesValues(t *testing.T) {
	for _, c := range AllCorrections() {
		want := map[string]decoder.Family{"int32": decoder.FamSigned, "uint64": decoder.FamUnsigned64}[c.As]
		for _, g := range c.Games {
			for _, vt := range []string{c.Type, c.Type + "[4]", "CNetworkUtlVectorBase< " + c.Type + " >"} {
				f := built(field("m_x", vt, nil), Aliases{}, g)
				d := f.Decoder
				if f.Model == VariableArray {
					d = f.Elem
				}
				if d.Family != want || f.Correction != c || f.UnknownType != "" || f.VarType != vt {
					t.Errorf("%s %s: %s (correction %v, unknown %q), want %s", g, vt, d.Family, f.Correction, f.UnknownType, want)
				}
				s := built(field("m_x", vt, nil), Aliases{Seed: true}, g)
				if s.Correction != nil || s.UnknownType != c.Type {
					t.Errorf("%s %s under the seed's reading: correction %v, unknown %q", g, vt, s.Correction, s.UnknownType)
				}
			}
		}
	}
	// A game whose table does not hold a correction reads the seed's way.
	if f := built(field("m_x", "PlayerID_t", nil), Aliases{}, game.CS2); f.Correction != nil {
		t.Errorf("PlayerID_t corrected in CS2: %+v", f.Correction)
	}
}

// A name a patch renamed, aliased to a corrected type, is read as the
// corrected type is; --as accepts the corrected names.
func TestAliasToCorrectedType(t *testing.T) {
	a, err := ParseAliases([]string{"GameTickNew_t=GameTick_t"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	f := built(field("m_nNextThinkTick", "GameTickNew_t", nil), a, game.CS2)
	if f.Decoder.Family != decoder.FamSigned || f.Correction == nil || f.Correction.Type != "GameTick_t" {
		t.Fatalf("GameTickNew_t=GameTick_t: %s, correction %v", f.Decoder.Family, f.Correction)
	}
	if _, err := ParseAliases([]string{"X=NoSuchType_t"}, game.Unknown); err == nil {
		t.Fatal("an unknown target accepted")
	}
	if !a.With(KindType, "Y", "int32").Equal(a.With(KindType, "Y", "int32")) || a.Equal(Aliases{Types: a.Types, Seed: true}) {
		t.Fatal("Equal ignores the reading")
	}
}

// The --as error, read before the game is known, says which types hold
// in every game and which only in CS2 and Deadlock (a Dota 2 file's stats
// lists those among its unknown names): one list, not two that disagree.
func TestAliasErrorListsTypesByGame(t *testing.T) {
	_, err := ParseAliases([]string{"X=Nope"}, game.Unknown)
	if err == nil {
		t.Fatal("an unknown target accepted")
	}
	every, rest, ok := strings.Cut(err.Error(), "; of CS2 and Deadlock only: ")
	if !ok || strings.Contains(every, "CGameSceneNodeHandle") || !strings.Contains(rest, "CGameSceneNodeHandle") || !strings.Contains(every, " int32 ") {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(rest, "corrected types: GameTick_t (cs2, deadlock, dota2)") {
		t.Fatalf("corrections not listed with their games: %v", err)
	}
}
