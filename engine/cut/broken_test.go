package cut_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/internal/testreplays"
)

// A window whose first command is broken (a snappy body that does not
// decompress) says so, with the command's place, as check does; it is not
// "no command has a tick" in the window.
func TestCutFromABrokenCommandNamesIt(t *testing.T) {
	_, orig := testreplays.Read(t, "dota2")
	data := append([]byte(nil), orig...)
	r, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var broken container.Command
	for {
		c, err := r.Next()
		if err != nil {
			t.Fatalf("no compressed packet after tick 150: %v", err)
		}
		if c.Tick >= 150 && c.Compressed && c.Kind == container.Packet {
			broken = c
			break
		}
	}
	for i := broken.BodyOffset; i < broken.End(); i++ {
		data[i] = 0xff
	}
	for _, from := range []int32{broken.Tick - 1, broken.Tick} {
		res, err := cut.Cut(data, cut.Options{From: from, To: broken.Tick + 100})
		place := fmt.Sprintf("byte %d, command #%d", broken.Offset, broken.Index)
		if res != nil || err == nil || !strings.Contains(err.Error(), place) || !strings.Contains(err.Error(), "snappy") ||
			!strings.Contains(err.Error(), "the window's first command cannot be read") {
			t.Errorf("--from %d (command #%d at byte %d, tick %d, broken): %v", from, broken.Index, broken.Offset, broken.Tick, err)
		}
	}
}
