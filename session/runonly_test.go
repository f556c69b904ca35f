package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The package opens a decode of the file in one place (issue 45): no file
// but run.go calls replay.Open, resumes a keyframe (Resume) or sets a
// replay's hooks; every other decode is a Pass, or a replay run.go opened.
func TestReplayOpenedInRunAlone(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	found := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
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
				t.Errorf("%s: %s outside run.go: open a Pass (or ask resumeBefore) instead", name, what)
			} else {
				found++
			}
			return true
		})
	}
	if found < 3 {
		t.Fatalf("run.go: only %d of replay.Open, Resume and Hooks found: the test looks for the wrong names", found)
	}
}
