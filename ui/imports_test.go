package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The TUI takes its data from package session (AGENTS.md): no file of the
// program imports the decoding engine's replay or entity packages.
func TestDataComesFromSession(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == "github.com/dembug/dembug/engine/replay" || p == "github.com/dembug/dembug/engine/entity" {
				t.Errorf("%s imports %s: ask package session instead", name, p)
			}
		}
	}
}
