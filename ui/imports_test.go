package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The TUI takes its data from package session: it runs no engine pass
// over the file itself (a capture, the inference, a replay), it asks the
// open session.File. Which packages ui may import at all is
// internal/architecture's rule (no replay, entity, infer, and no bits:
// decoder, fieldpath, bitio, stringtable, encoding/binary).
func TestDataComesFromSession(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
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
