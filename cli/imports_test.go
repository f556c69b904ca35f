package cli

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The command line opens a session.File as the TUI does (issue 45): no
// file of the package imports the engine's replay, entity table,
// inference or diagnosis; it asks the file, a Pass or Checked.
func TestCommandsAskTheSession(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	banned := map[string]bool{
		"github.com/dembug/dembug/engine/replay":   true,
		"github.com/dembug/dembug/engine/entity":   true,
		"github.com/dembug/dembug/engine/infer":    true,
		"github.com/dembug/dembug/engine/diagnose": true,
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); banned[p] {
				t.Errorf("%s imports %s: ask package session instead", name, p)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}
