package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/hostile"
)

// A suspect that is no field (the message ran out inside an update's
// header) prints as the message, not as an empty entity and field.
func TestMessageLevelSuspectLine(t *testing.T) {
	data, err := hostile.SchemaChain(16, false)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "deep.dem")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"check", p})
	cmd.Execute()
	s := errw.String()
	if !strings.Contains(s, "first suspicious: tick 0, message #0: ") || strings.Contains(s, "field  at") || strings.Contains(s, "decoder :") {
		t.Fatalf("suspect line:\n%s", s)
	}
}
