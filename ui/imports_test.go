package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The TUI takes its data from package session (AGENTS.md): no file of the
// program imports the decoding engine's replay, entity or infer packages,
// nor runs an engine pass over the file itself (a capture, the inference,
// a replay): it asks the open session.File. Nor does it read bits: the
// engine explains its reads beside its formats (decoder's walk-through,
// fieldpath's ops, bitio's ubitvar, stringtable's reads, container's file
// header), and ui formats what session hands over, importing none of
// decoder, fieldpath, bitio, stringtable or encoding/binary.
func TestDataComesFromSession(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	banned := map[string]bool{
		"github.com/dembug/dembug/engine/replay":      true,
		"github.com/dembug/dembug/engine/entity":      true,
		"github.com/dembug/dembug/engine/infer":       true,
		"github.com/dembug/dembug/engine/decoder":     true,
		"github.com/dembug/dembug/engine/fieldpath":   true,
		"github.com/dembug/dembug/engine/bitio":       true,
		"github.com/dembug/dembug/engine/stringtable": true,
		"encoding/binary":                             true,
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if banned[p] {
				t.Errorf("%s imports %s: ask package session instead", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && enginePass(pkg.Name, sel.Sel.Name) {
				t.Errorf("%s calls %s.%s: an engine pass over the file belongs to session.File", name, pkg.Name, sel.Sel.Name)
			}
			return true
		})
	}
}

// enginePass reports whether pkg.fn decodes the file again from its start.
func enginePass(pkg, fn string) bool {
	switch pkg {
	case "diagnose":
		return strings.HasPrefix(fn, "Capture")
	case "infer":
		return fn == "Run"
	case "replay":
		return fn == "Open"
	}
	return false
}
