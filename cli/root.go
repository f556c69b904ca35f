// Package cli holds dembug's subcommands. Each command is a thin layer that
// runs the engine and prints; main.go only wires this package up.
package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/schema"
)

// OpenTUI is set by main to start the interactive debugger; keeping it a
// variable keeps the cli package free of UI imports.
var OpenTUI func(path string, data []byte, a schema.Aliases) error

// Root builds the command tree.
func Root(stdout, stderr io.Writer) *cobra.Command {
	var as []string
	root := &cobra.Command{
		Use:   "dembug [FILE]",
		Short: "A terminal debugger for Source 2 demo files (.dem)",
		Long: "dembug steps through a Source 2 replay packet by packet and update by update, showing every\n" +
			"field's path, decoder, bit offset, bit length and value beside the raw bits.",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if OpenTUI == nil {
				return cmd.Help()
			}
			aliases, err := parseAs(as)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				data, ok := sampleReplay()
				if !ok {
					return cmd.Help()
				}
				return OpenTUI("(built-in sample)", data, aliases)
			}
			data, err := readFile(args[0])
			if err != nil {
				return err
			}
			return OpenTUI(args[0], data, aliases)
		},
	}
	addAsFlag(root, &as)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(checkCmd(), entitiesCmd(), traceCmd(), statsCmd(), schemaCmd(), sampleCmd())
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

func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return data, nil
}

// ExitError carries an exit code without printing anything more.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }
