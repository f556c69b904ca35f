package cli

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/views"
)

// CutFile cuts the window of data into the file out, written whole or not
// at all.
// to < 0 is the file's end.
func CutFile(data []byte, aliases schema.Aliases, from, to int64, out string) (*cut.Result, error) {
	if err := tickFlagErr("--from", from); err != nil {
		return nil, err
	}
	if to > math.MaxInt32 {
		return nil, tickFlagErr("--to", to)
	}
	res, err := cut.Cut(data, cut.Options{From: int32(from), To: int32(max(to, -1)), Aliases: aliases})
	if err != nil {
		return nil, err
	}
	if err := cut.WriteFile(out, res.Data); err != nil {
		return nil, err
	}
	return res, nil
}

// WriteCutSummary says what a cut holds: one line, then the notes.
func WriteCutSummary(w io.Writer, out string, res *cut.Result, inBytes int) {
	state := "no state before it (the window starts with the game)"
	if res.StateTick >= 0 {
		state = fmt.Sprintf("a full frame of %d entities at tick %d", res.Entities, res.StateTick)
	}
	fmt.Fprintf(w, "%s: ticks %d–%d (%d commands %s), %s, %d string tables as they stood; %s of %s\n",
		out, res.First, res.Last, res.Commands, res.Framing(), state, res.Tables, views.SizeText(len(res.Data)), views.SizeText(inBytes))
	if res.Carried != "" {
		fmt.Fprintf(w, "  %s\n", res.Carried)
	}
	if res.Past != "" {
		fmt.Fprintf(w, "  left out as events before the window: %s\n", res.Past)
	}
}

func cutCmd() *cobra.Command {
	var from, to int64
	var out string
	var df decodeFlags
	cmd := &cobra.Command{
		Use:   "cut FILE --from T1 [--to T2] -o OUT.dem",
		Short: "Cut the ticks T1…T2 into a small valid replay: the signon, the state at T1 as a full frame, the window's commands unchanged",
		Long: "Cut the ticks T1…T2 (demo ticks; --to omitted: to the end) into OUT.dem, a valid replay of the same game\n" +
			"and build: the signon with the string tables as they stand at T1, a full frame holding every entity's\n" +
			"state just before T1, then the window's commands byte for byte, then a proper end. Tick numbers stay\n" +
			"the original's. A window that misaligns is cut up to and with its first misaligned message.\n" +
			"See docs/fixtures.md.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("cut needs -o OUT.dem: the file to write")
			}
			if !cmd.Flags().Changed("from") {
				return fmt.Errorf("cut needs --from T1: the window's first tick")
			}
			if err := tickFlagErr("--from", from); err != nil {
				return err
			}
			if cmd.Flags().Changed("to") {
				if err := tickFlagErr("--to", to); err != nil {
					return fmt.Errorf("%v (leave --to out to cut to the file's end)", err)
				}
			} else {
				to = -1 // the file's end
			}
			aliases, err := df.aliases()
			if err != nil {
				return err
			}
			if mapfile.Overwrites(args[0], out) {
				return fmt.Errorf("-o %s is the file being cut or a file of its capture: write the cut elsewhere", out)
			}
			// Mapped, as check maps it: only the pages the decode passes
			// are read, and they are dropped as it goes.
			f, err := mapfile.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			stop := f.ReleaseEvery(100 * time.Millisecond)
			defer stop()
			data := f.Data
			res, err := CutFile(data, aliases, from, to, out)
			if err != nil {
				return fmt.Errorf("%s: %v", args[0], err)
			}
			WriteCutSummary(cmd.OutOrStdout(), out, res, len(data))
			stderr := cmd.ErrOrStderr()
			for _, n := range res.Notes {
				fmt.Fprintf(stderr, "dembug: note: %s\n", n)
			}
			code := 0
			for _, p := range []string{res.StoppedText(), res.EndedText()} {
				if p != "" {
					fmt.Fprintf(stderr, "dembug: %s\n", p)
					code = 1
				}
			}
			if code != 0 {
				return &ExitError{Code: code}
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&from, "from", 0, "the window's first tick")
	cmd.Flags().Int64Var(&to, "to", 0, "the window's last tick (left out: to the end of the file)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the replay to write")
	df.add(cmd)
	return cmd
}
