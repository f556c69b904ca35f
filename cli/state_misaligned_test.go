package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
)

// entities and strings of a file that misaligns still print the state, but
// say on stderr from which message it is not to be trusted, and exit 1, as
// check does; before the first misaligned message, and under the --as that
// aligns it, they exit 0 with nothing on stderr.
func TestStateOfAMisalignedFileIsFlagged(t *testing.T) {
	path, _ := patchedFile(t, writer.Rename{From: "QAngle", To: "DecalAngle_t"})
	for _, cmd := range []string{"entities", "strings"} {
		out, stderr, err := runDembug(cmd, path)
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != 1 || out == "" ||
			!strings.Contains(stderr, path+": the state is not to be trusted from the first misaligned message on: ") ||
			!strings.Contains(stderr, "tick ") {
			t.Errorf("%s of a misaligned file: err %v, %d bytes out, stderr %q", cmd, err, len(out), stderr)
		}
		if _, stderr, err := runDembug(cmd, "--as", "DecalAngle_t=QAngle", path); err != nil || stderr != "" {
			t.Errorf("%s --as DecalAngle_t=QAngle: err %v, stderr %q", cmd, err, stderr)
		}
	}
}
