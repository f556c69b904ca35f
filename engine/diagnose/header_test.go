package diagnose

import (
	"errors"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
)

// HeaderBreak names the assumption from the header error's fault, not from
// its words: an error in a field whose text happens to read like a header's
// is no header break.
func TestHeaderBreakByFault(t *testing.T) {
	for _, c := range []struct {
		err   error
		delta bool
		want  string
	}{
		{&entity.HeaderError{Fault: entity.NoSuchEntity, Msg: "update of entity 9"}, false, "a full frame creates every entity before updating it, but update 3 updates entity 9"},
		{&entity.HeaderError{Fault: entity.NoSuchEntity, Msg: "update of entity 9"}, true, "an update names an entity that exists, but update 3 updates entity 9"},
		{&entity.HeaderError{Fault: entity.UnknownClass, Msg: "create with class 5"}, true, "class ids are 0 bits wide (from max_classes), but update 3 creates"},
		{&entity.HeaderError{Fault: entity.BadDeletions, Msg: "list too long"}, true, "a delta message ends with a deletion list, but list too long"},
		{&entity.HeaderError{Fault: entity.BadHeader, Msg: "update header", Err: errors.New("read past the end")}, true, "update 3's header reads an index delta and command bits that make sense, but update header: read past the end"},
		{errors.New("value of path m_x (the deletion list of which does not exist)"), true, ""},
	} {
		cs := &Case{Before: entity.NewTable(), Msg: messages.PacketEntities{IsDelta: c.delta},
			Record: &provenance.Message{Err: &entity.Error{Update: 3, Entity: 9, Err: c.err}}}
		got := HeaderBreak(cs)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("%v (delta %v): %q, want %q…", c.err, c.delta, got, c.want)
		}
	}
}
