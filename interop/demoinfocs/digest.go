package demoinfocs

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	dem "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs"
	"github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/events"
	st "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/sendtables"

	"github.com/dembug/dembug/interop/digest"
)

// snapshotEvery is how often, in frames, Digest hashes every entity it
// holds: demoinfocs says which property changed only by the names its
// classes list, not by an array's elements, and hashing all of them after
// every frame costs about 30 µs an entity.
const snapshotEvery = 8

// Digest reads data to its end with demoinfocs: a line for every entity
// it creates, with its values hashed, and for its deletes; a line for
// every update of a property its class lists ("TICK INDEX NAME VALUE");
// and every snapshotEvery frames and after the last, a line per entity it
// holds with its values hashed, which takes in arrays' elements. With
// fields, the lines are those fields' values alone, per entity that has
// them after each frame. It is a reading of demoinfocs as it is built:
// cmd/demoinfocs-digest prints it, so that a test can build it from a
// copy of demoinfocs' source with lines inserted.
func Digest(data []byte, fields ...string) (s digest.Stream) {
	p := dem.NewParserWithConfig(bytes.NewReader(data), dem.ParserConfig{})
	defer p.Close()
	tick := func() int32 { return int32(p.GameState().IngameTick()) }
	hashAll := func(e st.Entity, op string) {
		vals := map[string]any{}
		for _, prop := range e.Properties() {
			if prop != nil {
				vals[prop.Name()] = prop.Value().Any
			}
		}
		s.Entity(tick(), int32(e.ID()), e.ServerClass().Name(), int32(e.SerialNum()), op, vals)
	}
	frames := 0
	snapshot := func() {
		ents := p.GameState().Entities() // a map: by index, in order
		for _, idx := range slices.Sorted(maps.Keys(ents)) {
			e := ents[idx]
			if e == nil {
				continue
			}
			if len(fields) == 0 {
				hashAll(e, "held")
				continue
			}
			for _, name := range fields {
				if v, ok := e.PropertyValue(name); ok && v.Any != nil {
					s.Line("%d %d %s %s", tick(), idx, name, digest.Append(nil, v.Any))
				}
			}
		}
	}
	p.RegisterEventHandler(func(events.FrameDone) {
		frames++
		if len(fields) > 0 || frames%snapshotEvery == 0 {
			snapshot()
		}
	})
	if len(fields) == 0 {
		p.RegisterEventHandler(func(events.DataTablesParsed) {
			for _, sc := range p.ServerClasses().All() {
				names := sc.PropertyEntries()
				sc.OnEntityCreated(func(e st.Entity) {
					hashAll(e, "created")
					idx := e.ID()
					for _, name := range names {
						if prop := e.Property(name); prop != nil {
							prop.OnUpdate(func(v st.PropertyValue) {
								s.Line("%d %d %s %s", tick(), idx, name, digest.Append(nil, v.Any))
							})
						}
					}
					e.OnDestroy(func() { s.Line("%d %d deleted", tick(), idx) })
				})
			}
		})
	}
	// demoinfocs panics on some misread input: that is how it ends.
	defer func() {
		if r := recover(); r != nil {
			s.Err = fmt.Sprintf("panic at tick %d: %v", tick(), r)
		}
	}()
	if err := p.ParseToEnd(); err != nil {
		// The error carries demoinfocs' stack trace after its first line.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		s.Err = fmt.Sprintf("tick %d: %s", tick(), msg)
	}
	if len(fields) == 0 {
		snapshot()
	}
	return s
}
