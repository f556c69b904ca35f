package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/mapfile"
)

// CutDone is a tick window of the open file written as a replay of its own
// (engine/cut): where it went, what it holds, and the command line that
// writes the same file again.
type CutDone struct {
	Out     string // the file written, as the user named it
	Command string // `dembug cut …`, shell-quoted, to repeat it
	// First and Last are the ticks of the window's first and last
	// commands, StateTick the tick the full frame holds (-1: the window
	// starts with the game).
	First, Last, StateTick     int32
	Commands, Entities, Tables int
	Framing                    string // how the window's commands were written (cut.Result.Framing)
	Size, InSize               int    // bytes of the cut and of the file
	Carried, Past              string
	Notes                      []string
	// Stopped says the window misaligns (the cut ends with that command),
	// Ended that a broken command ended it early; "" when neither.
	Stopped, Ended string
	Elapsed        time.Duration
}

// Cut cuts ticks from…to (to < 0: the end of the file) of the file, read
// under its aliases, and writes it to out whole or not at all. src is the
// name the file was opened by (a path, or a name in parentheses for the
// built-in sample): out may not be it.
func (f *File) Cut(src string, from, to int32, out string) (*CutDone, error) {
	if out == "" {
		return nil, fmt.Errorf("no file named to write the cut to")
	}
	if mapfile.Overwrites(src, out) {
		return nil, fmt.Errorf("%s is the file being cut or a file of its capture: write the cut elsewhere", out)
	}
	start := time.Now()
	res, err := cut.Cut(f.data, cut.Options{From: from, To: to, Aliases: f.aliases,
		Open: f.openAtStart})
	if err != nil {
		return nil, err
	}
	if err := cut.WriteFile(out, res.Data); err != nil {
		return nil, err
	}
	d := &CutDone{
		Out: out, Command: CutCommand(src, f.aliases, from, to, out),
		First: res.First, Last: res.Last, StateTick: res.StateTick,
		Commands: res.Commands, Entities: res.Entities, Tables: res.Tables, Framing: res.Framing(),
		Size: len(res.Data), InSize: len(f.data),
		Carried: res.Carried, Past: res.Past, Notes: res.Notes,
		Stopped: res.StoppedText(), Ended: res.EndedText(),
		Elapsed: time.Since(start),
	}
	return d, nil
}

// sampleName is the file the built-in sample is written to in the command
// line that cuts it (`dembug sample -o` first: it has no path of its own).
const sampleName = "sample.dem"

// IsBuiltIn reports whether src names no file but the built-in sample
// ("(built-in sample)").
func IsBuiltIn(src string) bool { return strings.HasPrefix(src, "(") }

// CutCommand is the command line that writes the same cut: `dembug cut SRC
// --from T1 [--to T2] [--as …] -o OUT`, each word shell-quoted where the
// shell would read it otherwise. The built-in sample is written to a file
// first.
func CutCommand(src string, a schema.Aliases, from, to int32, out string) string {
	pre := ""
	if IsBuiltIn(src) {
		pre, src = "dembug sample -o "+sampleName+" && ", sampleName
	}
	words := []string{"dembug", "cut", ShellQuote(src), "--from", fmt.Sprint(from)}
	if to >= 0 {
		words = append(words, "--to", fmt.Sprint(to))
	}
	for _, fl := range a.Flags() { // "--as NAME=KNOWN", sorted
		name, val, _ := strings.Cut(fl, " ")
		words = append(words, name, ShellQuote(val))
	}
	words = append(words, "-o", ShellQuote(out))
	return pre + strings.Join(words, " ")
}

// DefaultCutPath is where a cut of ticks from…to goes unless the user names
// another file: the source's name with the window, in the current folder
// (the source's folder may be read-only, a shared replay collection).
func DefaultCutPath(src string, from, to int32) string {
	base := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	if IsBuiltIn(src) || base == "" || base == "." || base == string(filepath.Separator) {
		base = "sample"
	}
	end := "end"
	if to >= 0 {
		end = fmt.Sprint(to)
	}
	return fmt.Sprintf("%s-%d-%s.dem", base, from, end)
}

// ShellQuote is s as one word to a POSIX shell: as it is when every
// character is one the shell takes literally, else in single quotes (a
// single quote inside ends the quotes, is escaped, and starts them again).
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%^", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ExpandHome is path with a leading "~/" made the home folder, as a shell
// would have done with it.
func ExpandHome(path string) string {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, rest)
}
