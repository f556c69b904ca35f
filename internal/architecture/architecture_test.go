package architecture

import (
	"bufio"
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
	fset := token.NewFileSet()
	for _, rule := range importRules {
		files, _ := filepath.Glob(filepath.Join(root, rule.from, "*.go"))
		sub, _ := filepath.Glob(filepath.Join(root, rule.from, "*", "*.go"))
		files = append(files, sub...)
		if len(files) == 0 {
			t.Fatalf("%s holds no Go files: the rule reads nothing", rule.from)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range rule.to {
					if p == module+bad || strings.HasPrefix(p, module+bad+"/") || strings.HasSuffix(bad, "/") && strings.HasPrefix(p, bad) || p == bad {
						t.Errorf("%s imports %s: %s", f, p, rule.why)
					}
				}
			}
		}
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
