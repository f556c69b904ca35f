package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"a.dem":               "a.dem",
		"../x/auto-1_2.dem":   "../x/auto-1_2.dem",
		"my cut.dem":          "'my cut.dem'",
		"it's.dem":            `'it'\''s.dem'`,
		"":                    "''",
		"$HOME/a.dem":         "'$HOME/a.dem'",
		"CHandle<CBase>=int8": "'CHandle<CBase>=int8'",
		"~/a.dem":             "'~/a.dem'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCutCommandAndDefaultPath(t *testing.T) {
	a, err := schema.ParseAliases([]string{"PlayerID_t=int32", "CHandle< X >=uint32"}, game.Dota2)
	if err != nil {
		t.Fatal(err)
	}
	got := CutCommand("../r/my match.dem", a, 400, 500, "out.dem")
	want := "dembug cut '../r/my match.dem' --from 400 --to 500 --as 'CHandle< X >=uint32' --as PlayerID_t=int32 -o out.dem"
	if got != want {
		t.Errorf("command\n got %s\nwant %s", got, want)
	}
	if got := CutCommand("(built-in sample)", schema.Aliases{}, 3, -1, "s.dem"); got != "dembug sample -o sample.dem && dembug cut sample.dem --from 3 -o s.dem" {
		t.Errorf("sample: %s", got)
	}
	if got := DefaultCutPath("../shared/replays/dota2/auto-2233.dem", 400, 500); got != "auto-2233-400-500.dem" {
		t.Errorf("default path %s", got)
	}
	if got := DefaultCutPath("(built-in sample)", 4, -1); got != "sample-4-end.dem" {
		t.Errorf("sample default path %s", got)
	}
}

// File.Cut writes a replay that decodes whole and aligned, and says what
// it holds; a window it cannot cut and a file it cannot write leave no
// file behind.
func TestFileCut(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	f := OpenFile(data, schema.Aliases{})
	dir := t.TempDir()
	out := filepath.Join(dir, "w.dem")
	d, err := f.Cut(path, 400, 500, out)
	if err != nil {
		t.Fatal(err)
	}
	if d.First < 400 || d.Last > 500 || d.First > d.Last || d.Commands == 0 || d.Entities == 0 || d.StateTick >= 400 {
		t.Errorf("cut holds %+v", d)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) != d.Size || d.InSize != len(data) || d.Size >= len(data) {
		t.Fatalf("written %d bytes (%v), cut says %d of %d", len(b), err, d.Size, d.InSize)
	}
	if !strings.Contains(d.Command, "--from 400 --to 500") || !strings.HasSuffix(d.Command, "-o "+ShellQuote(out)) {
		t.Errorf("command %s", d.Command)
	}
	r, err := replay.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.FirstMisaligned != nil {
		t.Fatalf("the cut decodes with %v, misaligned %v", err, r.FirstMisaligned)
	}

	for name, c := range map[string]struct {
		from, to int32
		out      string
		want     string
	}{
		"backwards":  {500, 400, filepath.Join(dir, "b.dem"), "before"},
		"outside":    {90000, -1, filepath.Join(dir, "o.dem"), "past the file's end"},
		"unwritable": {400, 500, filepath.Join(dir, "no", "such", "x.dem"), "cannot write"},
		"itself":     {400, 500, path, "the file being cut"},
	} {
		_, err := f.Cut(path, c.from, c.to, c.out)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", name, err, c.want)
		}
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the folder: %v", names)
	}
}

func TestExpandHome(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for in, want := range map[string]string{"~/a.dem": "/home/u/a.dem", "a.dem": "a.dem", "~a.dem": "~a.dem", "/x/~/a.dem": "/x/~/a.dem"} {
		if got := ExpandHome(in); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}
