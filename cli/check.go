package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/replay"
)

// CheckResult is one file's summary, as printed by check --json.
type CheckResult struct {
	File            string  `json:"file"`
	Game            string  `json:"game"`
	Build           int32   `json:"build"`
	Commands        int     `json:"commands"`
	LastTick        int32   `json:"last_tick"`
	Messages        int64   `json:"messages"`
	PacketEntities  int64   `json:"packet_entities"`
	EntityUpdates   int64   `json:"entity_updates"`
	Fields          int64   `json:"fields"`
	Misaligned      int64   `json:"misaligned"`
	Seconds         float64 `json:"seconds"`
	Bytes           int     `json:"bytes"`
	Error           string  `json:"error,omitempty"`
	FirstMisaligned string  `json:"first_misaligned,omitempty"`
}

// Check decodes a whole file.
func Check(path string, data []byte) (CheckResult, *replay.Replay) {
	start := time.Now()
	res := CheckResult{File: path, Bytes: len(data)}
	r, err := replay.Open(data)
	if err != nil {
		res.Error = err.Error()
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	err = r.Run(nil)
	res.Seconds = time.Since(start).Seconds()
	res.Game = r.Game.String()
	res.Build = r.Header.BuildNum
	res.Commands = r.Stats.Commands
	res.LastTick = r.Stats.LastTick
	res.Messages = r.Stats.Messages
	res.PacketEntities = r.Stats.PacketEntities
	res.EntityUpdates = r.Entities.Stats.Updates
	res.Fields = r.Entities.Stats.Fields
	res.Misaligned = r.Stats.Misaligned
	if err != nil {
		res.Error = err.Error()
	}
	if r.FirstMisaligned != nil {
		res.FirstMisaligned = r.FirstMisaligned.Error()
	}
	return res, r
}

func checkCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Decode every command and entity update; one summary line per file, exit 1 on any error or misalignment",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			failed := false
			for _, path := range args {
				var res CheckResult
				data, err := readFile(path)
				if err != nil {
					res = CheckResult{File: path, Error: err.Error()}
				} else {
					res, _ = Check(path, data)
				}
				bad := res.Error != "" || res.Misaligned > 0
				failed = failed || bad
				if asJSON {
					b, _ := json.Marshal(res)
					fmt.Fprintln(out, string(b))
				} else {
					fmt.Fprintf(out, "%s: %s build %d, %d commands, last tick %d, %d messages, %d entity updates, %d fields, %d misaligned, %.3fs\n",
						path, res.Game, res.Build, res.Commands, res.LastTick, res.Messages, res.EntityUpdates, res.Fields, res.Misaligned, res.Seconds)
				}
				if res.Error != "" {
					fmt.Fprintf(errw, "%s: error: %s\n", path, res.Error)
				}
				if res.FirstMisaligned != "" {
					fmt.Fprintf(errw, "%s: first misaligned: %s\n", path, res.FirstMisaligned)
				}
			}
			if failed {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per file")
	return cmd
}
