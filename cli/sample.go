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
	var out string
	cmd := &cobra.Command{
		Use:   "sample -o FILE",
		Short: "Write the built-in sample replay (a short Dota-shaped demo with every decoder family) to FILE",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, ok := sampleReplay()
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
	return cmd
}
