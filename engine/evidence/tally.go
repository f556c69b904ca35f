package evidence

import (
	"math"
	"math/bits"
)

// Tally counts what one field's values look like.
type Tally struct {
	N       uint64 // values seen
	Zero    uint64 // of which zero
	Odd     uint64 // odd (a negative, if the field is zigzag)
	Even    uint64 // nonzero and even
	Pow2    uint64 // even powers of two (flags with bit 0 unused look like this)
	OddMax  uint64 // the largest odd value
	EvenMax uint64 // the largest nonzero even value
	Cut     uint64 // values whose varint held more than 32 bits (the read kept the low 32)
	CutMax  uint64 // the widest of them, whole
	// First is where the first value was read.
	First At
	// Ticks held against the server tick (net_Tick) of their message:
	// TickSeen nonzero values read while a server tick was known, of
	// which TickHalf are within a quarter of it halved (a zigzag tick)
	// and TickWhole within a quarter of it as read (an unsigned tick).
	TickSeen, TickHalf, TickWhole uint64
	// seen marks distinct values: bit v for v < 256, and above that one
	// of 256 bits per parity chosen by a hash (bits 256..511 even,
	// 512..767 odd). Popcounts are lower bounds of the distinct counts.
	seen [12]uint64
	gen  uint32 // the Set generation that last saved it (see Set.Observe)
}

// hashBit picks a distinct-value bit for v ≥ 256, keeping parity apart.
func hashBit(v uint64) uint {
	h := (v >> 1) * 0x9e3779b97f4a7c15
	return 256 + uint(v&1)*256 + uint(h>>56)
}

// Add counts one value. fifth is the varint's fifth byte when it had five
// (a value of 2^28 or more), else 0: its bits above the fourth are what a
// 32-bit read cut.
func (t *Tally) Add(v uint64, fifth uint8) {
	if fifth&0x70 != 0 {
		t.AddWide(v&(1<<28-1) | uint64(fifth&0x7f)<<28)
		return
	}
	t.add(v)
}

// AddWide counts one value read whole (a 64-bit read, or a 32-bit read's
// value with the bits it cut put back): above 32 bits it counts as cut.
func (t *Tally) AddWide(v uint64) {
	if v>>32 != 0 {
		t.Cut++
		t.CutMax = max(t.CutMax, v)
	}
	t.add(v)
}

func (t *Tally) add(v uint64) {
	t.N++
	switch {
	case v == 0:
		t.Zero++
	case v&1 == 1:
		t.Odd++
		t.OddMax = max(t.OddMax, v)
	default:
		t.Even++
		t.EvenMax = max(t.EvenMax, v)
	}
	if v > 1 && v&(v-1) == 0 {
		t.Pow2++
	}
	b := uint(v)
	if v >= 256 {
		b = hashBit(v)
	}
	t.seen[b>>6] |= 1 << (b & 63)
}

// AddTick holds value v, read in a message of server tick tick (0: not
// known), against that tick.
func (t *Tally) AddTick(v uint64, tick uint32) {
	if tick == 0 || v == 0 {
		return
	}
	t.TickSeen++
	if v&1 == 0 && nearTick(v/2, tick) {
		t.TickHalf++
	}
	if nearTick(v, tick) {
		t.TickWhole++
	}
}

// nearTick reports whether v is within a quarter of tick: a tick field
// (the next think, the last update) sits a few ticks from the server's,
// and the windows of v and 2v never overlap.
func nearTick(v uint64, tick uint32) bool {
	d := uint64(tick) / 4
	return v+d >= uint64(tick) && v <= uint64(tick)+d
}

// Merge adds u's counts to t (the fields of one type, together).
func (t *Tally) Merge(u *Tally) {
	t.N += u.N
	t.Zero += u.Zero
	t.Odd += u.Odd
	t.Even += u.Even
	t.Pow2 += u.Pow2
	t.OddMax = max(t.OddMax, u.OddMax)
	t.EvenMax = max(t.EvenMax, u.EvenMax)
	t.Cut += u.Cut
	t.CutMax = max(t.CutMax, u.CutMax)
	t.TickSeen += u.TickSeen
	t.TickHalf += u.TickHalf
	t.TickWhole += u.TickWhole
	for i := range t.seen {
		t.seen[i] |= u.seen[i]
	}
}

// Distinct counts distinct nonzero values seen, even and odd (lower
// bounds above 255).
func (t *Tally) Distinct() (even, odd int) {
	const evenBits, oddBits = 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
	for i := 0; i < 4; i++ {
		even += bits.OnesCount64(t.seen[i] & evenBits)
		odd += bits.OnesCount64(t.seen[i] & oddBits)
	}
	if t.seen[0]&1 != 0 {
		even-- // zero
	}
	var he, ho int
	for i := 4; i < 8; i++ {
		he += bits.OnesCount64(t.seen[i])
		ho += bits.OnesCount64(t.seen[i+4])
	}
	// (never more than the values seen)
	return int(min(uint64(even+linearCount(he)), t.Even)), int(min(uint64(odd+linearCount(ho)), t.Odd))
}

// linearCount estimates how many distinct values set ones of 256 hashed
// bits: more than ones, as two values may share a bit (-m ln(1 - ones/m)).
func linearCount(ones int) int {
	const m = 256
	if ones >= m {
		return int(m * math.Log(m)) // saturated: at least this many
	}
	return int(math.Round(-m * math.Log(1-float64(ones)/m)))
}

// Negatives lists, ascending, the negatives the small odd values stand for
// under zigzag (1 is -1, 3 is -2, …), the values below 256 only.
func (t *Tally) Negatives() []int64 {
	var out []int64
	for v := 255; v >= 1; v -= 2 {
		if t.Seen(uint8(v)) {
			out = append(out, -int64(v+1)/2)
		}
	}
	return out
}

// Seen reports whether the value v (below 256) was seen.
func (t *Tally) Seen(v uint8) bool { return t.seen[v>>6]&(1<<(v&63)) != 0 }

// At places a message: its tick, command and index among the command's
// messages.
type At struct {
	Tick, Command, Message int32
}

// Set is the tallies of one decode, indexed by a decoder's Watch number
// (index 0 is never used). Values are counted per message: Begin starts
// one, Discard forgets what a misaligned message counted.
type Set struct {
	Tallies []Tally
	Owner   any // what the watch numbers are numbers of (a schema)
	// ServerTick is the server tick (net_Tick) of the message being
	// decoded, 0 before the first; MaxClients the server's player slots
	// (svc_ServerInfo), 0 when not given. The decode sets both.
	ServerTick uint32
	MaxClients int32
	// At is the message being decoded (the decode sets it): a tally's
	// First.
	At   At
	gen  uint32
	undo []saved
}

type saved struct {
	w uint16
	t Tally
}

// Resize makes room for watch numbers below n.
func (s *Set) Resize(n int) {
	if n > len(s.Tallies) {
		s.Tallies = append(s.Tallies, make([]Tally, n-len(s.Tallies))...)
	}
}

// Begin starts a message: what it counts can be discarded until the next
// Begin.
func (s *Set) Begin() {
	s.gen++
	s.undo = s.undo[:0]
}

// Discard forgets what the message since Begin counted.
func (s *Set) Discard() {
	for i := len(s.undo) - 1; i >= 0; i-- {
		u := &s.undo[i]
		s.Tallies[u.w] = u.t
	}
	s.undo = s.undo[:0]
}

// Observe counts value v of the field watched as w (see Tally.Add for
// fifth). A tally is saved the first time a message touches it. The set
// grows to w: a schema numbers its watched fields as it builds them, so
// a class first decoded late brings numbers the set has not seen.
func (s *Set) Observe(w uint16, v uint64, fifth uint8) {
	t := s.tally(w)
	t.Add(v, fifth)
	t.AddTick(v, s.ServerTick)
}

// ObserveWide is Observe for a value read whole (Tally.AddWide).
func (s *Set) ObserveWide(w uint16, v uint64) {
	t := s.tally(w)
	t.AddWide(v)
	t.AddTick(v, s.ServerTick)
}

// Touch counts a read of the field watched as w whose value is no varint
// (a bool, a float, a string): only that it was read, and where first.
func (s *Set) Touch(w uint16) {
	t := s.tally(w)
	t.N++
}

// tally is w's tally, saved for Discard the first time this message
// touches it, its First set at its first value.
func (s *Set) tally(w uint16) *Tally {
	if int(w) >= len(s.Tallies) {
		s.Resize(int(w) + 1)
	}
	t := &s.Tallies[w]
	if t.gen != s.gen {
		s.undo = append(s.undo, saved{w, *t})
		t.gen = s.gen
	}
	if t.N == 0 {
		t.First = s.At
	}
	return t
}
