package schema

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
)

// choiceMemo keeps, for one parse, the decoder chosen for each distinct
// set of what decoder choice reads (decoderFor and chooseElem): a schema's
// 1,600 to 1,800 fields repeat a few hundred such sets, and choosing builds
// the reason in words, an allocation or two each time. Fields alike share
// the decoder, which no one writes.
type choiceMemo map[choiceKey]choice

type choiceKey struct {
	base, typeBase, encoder, varSer string
	bits, flags                     int32
	low, high                       float32
	bitsSet, lowSet, highSet, elem  bool
	corrected                       bool // chooseElem reads a corrected element otherwise
}

type choice struct {
	dec          *decoder.Decoder
	why, problem string
}

// choose is chooseElem (elem) or decoderFor for f's value of type base,
// taken from the memo when a field alike was chosen for before. A nil
// memo chooses afresh.
func (m choiceMemo) choose(f *Field, base string, g game.Game, elem bool) (*decoder.Decoder, string) {
	pick := func() (*decoder.Decoder, string) {
		if elem {
			return chooseElem(f, g)
		}
		return decoderFor(f, base, g)
	}
	if m == nil {
		return pick()
	}
	k := choiceKey{base: base, typeBase: f.Type.Base, encoder: f.Encoder, varSer: f.VarSerializer,
		bits: f.BitCount, flags: f.EncodeFlags, low: f.Low, high: f.High,
		bitsSet: f.BitCountSet, lowSet: f.LowSet, highSet: f.HighSet, elem: elem, corrected: f.Correction != nil}
	if c, ok := m[k]; ok {
		if c.problem != "" {
			f.Problem = c.problem // as the set-up that failed wrote it
		}
		return c.dec, c.why
	}
	before := f.Problem
	d, why := pick()
	c := choice{dec: d, why: why}
	if f.Problem != before {
		c.problem = f.Problem
	}
	m[k] = c
	return d, why
}
