package manta

import (
	"fmt"

	"github.com/dotabuff/manta"

	"github.com/dembug/dembug/interop/digest"
)

// Digest reads data to its end with Manta, one line per entity it
// creates or updates (its values after the update, hashed), deletes or
// leaves. Data is read as it is: a replay the client recorded needs its
// game directory to name the build first (withServerGameDir). It is a
// reading of Manta as it is built: cmd/manta-digest prints it, so that a
// test can build it from a copy of Manta's source with lines inserted.
func Digest(data []byte) (s digest.Stream) {
	p, err := manta.NewParser(data)
	if err != nil {
		s.Err = err.Error()
		return s
	}
	p.OnEntity(func(e *manta.Entity, op manta.EntityOp) error {
		tick := int32(p.Tick)
		switch {
		case op.Flag(manta.EntityOpCreated) || op.Flag(manta.EntityOpUpdated):
			s.Entity(tick, e.GetIndex(), e.GetClassName(), e.GetSerial(), op.String(), e.Map())
		default:
			s.Line("%d %d %s %d %s", tick, e.GetIndex(), e.GetClassName(), e.GetSerial(), op)
		}
		return nil
	})
	// A misread field can take Manta anywhere: a panic is how it ends.
	defer func() {
		if r := recover(); r != nil {
			s.Err = fmt.Sprintf("panic at tick %d: %v", p.Tick, r)
		}
	}()
	if err := p.Start(); err != nil {
		s.Err = fmt.Sprintf("tick %d: %v", p.Tick, err)
	}
	return s
}
