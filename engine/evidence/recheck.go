package evidence

import "fmt"

// Check is how a file's values are held against a correction of decoder
// choice (schema's corrections: a type the game writes otherwise than the
// seed's tables read it).
type Check uint8

const (
	// CheckZigzag: read unsigned, the values carry the zigzag signature.
	CheckZigzag Check = iota + 1
	// CheckTicks: zigzag; as signed the values track the server tick
	// (net_Tick) of their message, which the verdict says. Parity decides:
	// a tick read in the wrong reading can sit near the server tick by
	// chance (a weapon deployed at half the current tick).
	CheckTicks
	// CheckPlayers: zigzag, and as signed the values are -1 or a player
	// slot under the server's max_clients.
	CheckPlayers
	// CheckWide: values above 32 bits occur, which a 32-bit read cuts.
	CheckWide
)

// Status is what a file's values say of a correction.
type Status uint8

const (
	Unchecked    Status = iota // too few values, or none that tell
	Confirmed                  // the values show what the correction says
	Contradicted               // the values show the game wrote the seed's way, or another
)

func (s Status) String() string {
	switch s {
	case Confirmed:
		return "confirmed"
	case Contradicted:
		return "contradicted"
	}
	return "unchecked"
}

// Recheck is one file's verdict on one correction.
type Recheck struct {
	Status Status
	Text   string // what the values show, in a sentence
}

// LooksUnsigned reports whether t shows an unsigned value read as it is:
// both parities in many distinct values, the odd ones as large as the
// even ones. A zigzag field's odd values are its few negatives.
func (t *Tally) LooksUnsigned() bool {
	ev, od := t.Distinct()
	return t.Odd+t.Even >= MinNonzero && od >= MinDistinctEven && t.OddMax > t.EvenMax/OddScale && od > max(2, ev/3)
}

// RecheckTally holds the values of a corrected type's fields (t, merged
// over fields; read back as the varints they were) against check c.
// maxClients is the server's player slots (0: not given).
func RecheckTally(c Check, t Tally, fields int, maxClients int32) Recheck {
	in := fmt.Sprintf("%s in %s", count(t.N, "value", "values"), count(uint64(fields), "field", "fields"))
	if t.N == 0 {
		return Recheck{Unchecked, "no values in this file"}
	}
	switch c {
	case CheckWide:
		switch {
		case t.Cut > 0:
			return Recheck{Confirmed, fmt.Sprintf("%s: %d held more than 32 bits (up to %d)", in, t.Cut, t.CutMax)}
		case t.IsZigzag():
			return Recheck{Contradicted, fmt.Sprintf("%s: they carry the zigzag signature (%s), a signed type's", in, t.zigzagText())}
		}
		return Recheck{Unchecked, in + ": none held more than 32 bits"}
	case CheckPlayers:
		if bad := t.playerProblem(maxClients); bad != "" {
			return Recheck{Contradicted, in + ": " + bad}
		}
		if !t.IsZigzag() && t.Odd+t.Even >= MinNonzero && t.OddMax <= 1 && t.Even > 0 {
			return Recheck{Confirmed, fmt.Sprintf("%s: as signed they are -1 … %d, player slots%s", in, t.EvenMax/2, slotsText(maxClients))}
		}
	}
	switch {
	case t.LooksUnsigned():
		ev, od := t.Distinct()
		return Recheck{Contradicted, fmt.Sprintf("%s: both parities in many values (%d distinct even, %d odd up to %d): an unsigned type's, not zigzag", in, ev, od, t.OddMax)}
	case t.IsZigzag():
		text := in + ": " + t.zigzagText()
		if c == CheckTicks && t.TickHalf > t.TickWhole {
			text += "; " + t.TickText()
		}
		return Recheck{Confirmed, text}
	}
	return Recheck{Unchecked, in + ": too few to tell"}
}

// playerProblem says what in t no player id is: a negative below -1, or a
// slot at or past the server's max_clients.
func (t *Tally) playerProblem(maxClients int32) string {
	_, od := t.Distinct()
	switch {
	case t.OddMax > 1 && od >= 3:
		return fmt.Sprintf("as signed they reach %d, and no player id is below -1", -int64(t.OddMax+1)/2)
	case maxClients > 0 && t.EvenMax/2 >= uint64(maxClients) && t.EvenMax < 1<<32:
		return fmt.Sprintf("as signed they reach %d, past the server's %d player slots", t.EvenMax/2, maxClients)
	}
	return ""
}

func slotsText(maxClients int32) string {
	if maxClients <= 0 {
		return ""
	}
	return fmt.Sprintf(" under the server's %d (svc_ServerInfo max_clients)", maxClients)
}

// TickText says how a name's values track the server tick, for a verdict
// on a type no table knows ("" when they were not held against one).
func (t *Tally) TickText() string {
	if t.TickSeen < MinNonzero {
		return ""
	}
	return fmt.Sprintf("as signed, %d of %d nonzero values are within a quarter of the server tick (net_Tick); read unsigned, %d are", t.TickHalf, t.TickSeen, t.TickWhole)
}
