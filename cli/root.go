package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/budget"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/mapfile"
)

// OpenTUI is set by main to start the interactive debugger; keeping it a
// variable keeps the cli package free of UI imports.
var OpenTUI func(path string, data []byte, a schema.Aliases) error

// OpenTUICompare is OpenTUI opened at the first difference between a
// parser's trace and our decode (dembug FILE --compare THEIRS.jsonl).
var OpenTUICompare func(path string, data []byte, a schema.Aliases, res *compare.Result) error

// OpenTUIAt is OpenTUI opening at the first entity update at or after a
// tick (--tick).
var OpenTUIAt func(path string, data []byte, a schema.Aliases, tick int32) error

// Root builds the command tree.
func Root(stdout, stderr io.Writer) *cobra.Command {
	var df decodeFlags
	var theirs string
	var startTick int64 = -1
	root := &cobra.Command{
		Use:   "dembug [FILE]",
		Short: "A terminal debugger for Source 2 demo files (.dem)",
		Long: "dembug steps through a Source 2 replay packet by packet and update by update, showing every\n" +
			"field's path, decoder, bit offset, bit length and value beside the raw bits. With no FILE it opens\n" +
			"the built-in sample replay (docs/sample-tour.md walks through it; dembug sample -o FILE writes it).",
		Args:          rootArgs,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if OpenTUI == nil {
				return cmd.Help()
			}
			aliases, err := df.aliases()
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("tick") && (startTick < 0 || startTick > math.MaxInt32) {
				return fmt.Errorf("--tick %d: a demo tick is from 0 to %d", startTick, math.MaxInt32)
			}
			// open starts the debugger, at the first difference with
			// their trace when --compare names one.
			open := func(name string, data []byte) error {
				if err := checkAliasNames(data, aliases); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				if startTick >= 0 && OpenTUIAt != nil {
					return OpenTUIAt(name, data, aliases, int32(startTick))
				}
				if theirs == "" || OpenTUICompare == nil {
					return OpenTUI(name, data, aliases)
				}
				res, err := compareForTUI(data, theirs, aliases)
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "dembug: %v\n", err)
					return &ExitError{Code: 2}
				}
				return OpenTUICompare(name, data, aliases, res)
			}
			if len(args) == 0 {
				data, ok := sampleReplay()
				if !ok {
					return cmd.Help()
				}
				return open("(built-in sample)", data)
			}
			// Mapped, not read onto the heap; the pages the comparison
			// and the index pass have read are dropped from the resident
			// set four times a second.
			f, err := mapfile.Open(args[0])
			if err != nil {
				return err
			}
			// A file that is no demo at all is an error here, not a
			// debugger with nothing in it (a truncated or corrupt demo
			// opens, with what decodes).
			if _, err := container.NewReader(f.Data); err != nil {
				f.Close()
				return fmt.Errorf("%s: %v", args[0], err)
			}
			// The file is not unmapped when the debugger returns: its
			// background decodes (the grading pass, a search) may still
			// be reading it, and a read of an unmapped page is a fatal
			// fault, not a panic. The process ends right after.
			stop := f.ReleaseEvery(250 * time.Millisecond)
			defer stop()
			return open(args[0], f.Data)
		},
	}
	root.PersistentPreRun = func(cmd *cobra.Command, args []string) {
		if Budget {
			setBudget(args)
		}
	}
	df.add(root)
	root.Flags().Int64Var(&startTick, "tick", -1, "open at the first entity update at or after this tick")
	root.Flags().StringVar(&theirs, "compare", "", "open at the first difference between a parser's trace `THEIRS.jsonl` and our decode (see dembug compare)")
	root.SuggestionsMinimumDistance = 2
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(checkCmd(), entitiesCmd(), traceCmd(), compareCmd(), statsCmd(), schemaCmd(), sampleCmd())
	root.AddCommand(stringsCmd(), cutCmd())
	root.AddCommand(eventsCmd())
	root.AddCommand(shrinkCmd())
	root.AddCommand(commandsCmd())
	root.AddCommand(opsCmd())
	return root
}

// sampleReplay returns the built-in sample replay, if this build has one.
var sampleReplay = func() ([]byte, bool) { return nil, false }

// SetSample installs the built-in sample (from main, which embeds it).
func SetSample(data []byte) {
	if len(data) > 0 {
		sampleReplay = func() ([]byte, bool) { return data, true }
	}
}

// otherSamples are the built-in samples of other games, by the name
// `dembug sample --game` takes.
var otherSamples = map[string][]byte{}

// SetGameSample installs the built-in sample of another game (cs2).
func SetGameSample(game string, data []byte) {
	if len(data) > 0 {
		otherSamples[game] = data
	}
}

// Budget turns on the memory budget (engine/budget) for the files a command
// is given; main sets it. Tests that run commands in-process leave it off,
// as the budget counts the whole process's heap.
var Budget bool

// setBudget bounds the live heap by 128 MiB plus 8 times the size of the
// files named in args, and asks the collector to keep the process under
// 192 MiB plus 12 times: within 256 MiB plus 16 times their size with
// room for the collector's lag and the runtime itself. A replay needs a few
// times its size; a crafted file that asks for more stops with a located
// error.
func setBudget(args []string) {
	var size int64
	for _, a := range args {
		size += mapfile.Size(a) // a capture folder by its fragments' bytes
	}
	if size == 0 {
		size = 16 << 20 // the built-in sample, or no file at all
	}
	budget.Set(128<<20+8*size, 192<<20+12*size)
}

// readFile reads a replay whole: only a regular file of at most
// mapfile.MaxSize bytes (mapfile.Refuse).
func readFile(path string) ([]byte, error) { return mapfile.ReadFile(path) }

// ExitError carries an exit code without printing anything more.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// rootArgs takes one replay file. A mistyped command ("dembug chek f") is
// named as one, with the command it most likely meant.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if _, err := os.Stat(args[0]); err != nil || len(args) > 1 {
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			return fmt.Errorf("unknown command %q: did you mean %s? (dembug --help lists the commands)", args[0], strings.Join(s, " or "))
		}
	}
	if len(args) > 1 {
		return fmt.Errorf("dembug opens one replay file; got %d arguments (dembug --help lists the commands)", len(args))
	}
	return nil
}

// version is the module version this binary was built from, with its
// VCS revision when the build recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}
