package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// isTerminal says whether w is a terminal (binary output there is refused).
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func sampleCmd() *cobra.Command {
	var out, game string
	cmd := &cobra.Command{
		Use:   "sample -o FILE [--game cs2]",
		Short: "Write a built-in sample replay to FILE: a short Dota-shaped demo with every decoder family Dota gives, or (--game cs2) a CS2-shaped one with the families only CS2 uses",
		Args: func(cmd *cobra.Command, args []string) error {
			switch len(args) {
			case 0:
				return nil
			case 1:
				// The file a user means to write: the flag says it.
				return fmt.Errorf("sample writes the file -o names: dembug sample -o %s", args[0])
			}
			return fmt.Errorf("sample takes no arguments, got %d: write the sample with -o FILE", len(args))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			data, ok := sampleReplay()
			if game != "dota" {
				data, ok = otherSamples[game]
				if !ok {
					return fmt.Errorf("no built-in sample for --game %q (dota or cs2)", game)
				}
			}
			if !ok {
				return fmt.Errorf("this build has no built-in sample")
			}
			if out == "" || out == "-" {
				w := cmd.OutOrStdout()
				if out == "" && isTerminal(w) {
					return fmt.Errorf("the sample is a binary file: write it with -o FILE (or redirect standard output, or -o -)")
				}
				_, err := w.Write(data)
				return err
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return fmt.Errorf("cannot write %s: %v", out, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (%d bytes)\n", out, len(data))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (-: standard output; empty: standard output unless it is a terminal)")
	cmd.Flags().StringVar(&game, "game", "dota", "which sample: dota (docs/sample-tour.md) or cs2 (its CS2 section)")
	return cmd
}
