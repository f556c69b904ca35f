package architecture

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The architecture's rules, read from the code's own imports: the map in
// docs/architecture.md holds only while these hold. Paths are from the
// module's root, two folders up.
const root = "../.."

const module = "github.com/dembug/dembug/"

// importRules: no non-test file of a package under from imports a package
// under any of to.
var importRules = []struct {
	from string
	to   []string
	why  string
}{
	{"engine/", []string{"session", "ui", "views", "cli", "charm.land/"}, "the format knows no screen and no command line"},
	{"session/", []string{"ui", "views", "cli", "charm.land/"}, "the data layer knows no screen"},
	{"compare/", []string{"ui", "views", "cli", "charm.land/"}, "the data layer knows no screen"},
	{"views/", []string{"ui", "cli", "session", "charm.land/bubbletea"}, "views render data they are given"},
	{"cli/", []string{"ui", "engine/replay", "engine/entity", "engine/infer", "engine/diagnose"},
		"commands ask a session.File, as the debugger does"},
	{"ui/", []string{"cli", "engine/replay", "engine/entity", "engine/infer", "engine/decoder", "engine/fieldpath",
		"engine/bitio", "engine/stringtable", "encoding/binary"},
		"the screen asks the open session.File, and formats the explanations the engine gives"},
}

func TestImportRules(t *testing.T) {
	for _, rule := range importRules {
		eachSource(t, parser.ImportsOnly, func(path string, af *ast.File) {
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range rule.to {
					if p == module+bad || strings.HasPrefix(p, module+bad+"/") || strings.HasSuffix(bad, "/") && strings.HasPrefix(p, bad) || p == bad {
						t.Errorf("%s imports %s: %s", path, p, rule.why)
					}
				}
			}
		}, rule.from+"*.go", rule.from+"*/*.go")
	}
}

// eachSource parses every non-test Go file the patterns (globs from the
// module's root) match, with mode, and calls fn with its path and syntax.
func eachSource(t *testing.T, mode parser.Mode, fn func(path string, f *ast.File), patterns ...string) {
	t.Helper()
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("%s matches no Go files: the rule reads nothing", strings.Join(patterns, ", "))
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		fn(path, f)
	}
}

// TestNoFileOver800Lines: a file says one thing; past 800 lines it says
// several (tests included: they are read as much as the code).
func TestNoFileOver800Lines(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		n := 0
		for s := bufio.NewScanner(f); s.Scan(); n++ {
		}
		if n > 800 {
			t.Errorf("%s has %d lines, over 800", path, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
