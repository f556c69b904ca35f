package architecture

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

// Session opens a decode of the file in one place (issue 45): no file but
// run.go calls replay.Open, resumes a keyframe (Resume) or sets a replay's
// hooks; every other decode is a Pass, or a replay run.go opened.
func TestReplayOpenedInRunAlone(t *testing.T) {
	found := 0
	eachSource(t, 0, func(path string, f *ast.File) {
		name := filepath.Base(path)
		ast.Inspect(f, func(n ast.Node) bool {
			var what string
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "replay" && n.Sel.Name == "Open" {
					what = "replay.Open"
				}
				if n.Sel.Name == "Resume" || n.Sel.Name == "Hooks" {
					what = n.Sel.Name
				}
			}
			if what == "" {
				return true
			}
			if name != "run.go" {
				t.Errorf("session/%s: %s outside run.go: open a Pass (or ask resumeBefore) instead", name, what)
			} else {
				found++
			}
			return true
		})
	}, "session/*.go")
	if found < 3 {
		t.Fatalf("session/run.go: only %d of replay.Open, Resume and Hooks found: the test looks for the wrong names", found)
	}
}

// The TUI takes its data from package session: it runs no engine pass
// over the file itself (a capture, the inference, a replay), it asks the
// open session.File. Which packages ui may import at all is
// TestImportRules' (no replay, entity, infer, and no bits: decoder,
// fieldpath, bitio, stringtable, encoding/binary).
func TestDataComesFromSession(t *testing.T) {
	eachSource(t, 0, func(path string, f *ast.File) {
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
				t.Errorf("ui/%s calls %s.%s: an engine pass over the file belongs to session.File", filepath.Base(path), pkg.Name, sel.Sel.Name)
			}
			return true
		})
	}, "ui/*.go")
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
