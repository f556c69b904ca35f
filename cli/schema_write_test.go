package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// The schema listing (110,000 lines on the Dota 2 replay) reaches its
// writer in large blocks, not cell by cell: one write per table cell to a
// terminal or pipe took a second of system calls.
func TestWriteSchemaWritesInBlocks(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	r, err := loadSchema(data, schema.Aliases{})
	if err != nil {
		t.Fatal(err)
	}
	var w countingWriter
	if n := WriteSchema(&w, r.Schema(), ""); n == 0 {
		t.Fatal("no serializer written")
	}
	lines := strings.Count(w.String(), "\n")
	if lines < 10000 || w.writes > w.Len()/(16<<10)+2 {
		t.Fatalf("%d lines, %d bytes in %d writes", lines, w.Len(), w.writes)
	}
}
