package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/replay"
)

// CheckResult is one file's summary, as printed by check --json.
type CheckResult struct {
	File            string         `json:"file"`
	Game            string         `json:"game"`
	Build           int32          `json:"build"`
	Commands        int            `json:"commands"`
	LastTick        int32          `json:"last_tick"`
	Messages        int64          `json:"messages"`
	PacketEntities  int64          `json:"packet_entities"`
	EntityUpdates   int64          `json:"entity_updates"`
	Fields          int64          `json:"fields"`
	Misaligned      int64          `json:"misaligned"`
	Seconds         float64        `json:"seconds"`
	Bytes           int            `json:"bytes"`
	Error           string         `json:"error,omitempty"`
	FirstMisaligned string         `json:"first_misaligned,omitempty"`
	FirstSuspicious *Suspicious    `json:"first_suspicious,omitempty"`
	Fallbacks       map[string]int `json:"fallback_types,omitempty"`
}

// Suspicious is where the first misaligned message most likely goes wrong.
type Suspicious struct {
	Tick      int32  `json:"tick"`
	Command   int    `json:"command"`
	Message   int    `json:"message"`
	Entity    int32  `json:"entity"`
	Class     string `json:"class"`
	Field     string `json:"field"`
	BitOffset uint   `json:"bit_offset"`
	Decoder   string `json:"decoder"`
	Reason    string `json:"reason"`
	Fix       string `json:"fix,omitempty"`
}

// suspicious diagnoses the first misaligned message of data.
func suspicious(data []byte, at replay.Location) *Suspicious {
	c, err := diagnose.CaptureAt(data, at)
	if err != nil || c == nil {
		return nil
	}
	s := &Suspicious{Tick: at.Tick, Command: at.Command, Message: at.Message}
	if fix, err := c.Locate(); err == nil && fix.Field >= 0 {
		// Offsets and decoders as the file has them: for a decoder change
		// the original record, for a bit edit the repaired one (shifted
		// back to the file's bits).
		f := &fix.Record.Fields[fix.Field]
		start := f.Start
		if fix.WhatIf.Decoder != nil {
			f = &c.Record.Fields[fix.Field]
			start = f.Start
		} else if start > fix.WhatIf.Bit {
			start = start - fix.WhatIf.Insert + fix.WhatIf.Skip
		}
		u := fix.Record.Updates[f.Update]
		s.Entity, s.Class, s.Field, s.BitOffset, s.Decoder = u.Index, u.Class, f.Name, start, f.Decoder.Describe()
		s.Reason, s.Fix = "the message aligns when this field is read differently", fix.Explain
		return s
	}
	if first := c.Report.First; first != nil {
		s.Entity, s.Class, s.Field, s.BitOffset, s.Decoder, s.Reason = first.Entity, first.Class, first.Name, first.Bit, first.Decoder, first.Reason
		return s
	}
	return nil
}

// Check decodes a whole file and, when a message misaligns, searches for
// the field to blame.
func Check(path string, data []byte) (CheckResult, *replay.Replay) {
	return check(path, data, true)
}

// CheckOnly decodes a whole file without the (slower) search for a suspect.
func CheckOnly(path string, data []byte) (CheckResult, *replay.Replay) {
	return check(path, data, false)
}

func check(path string, data []byte, diagnoseMisalignment bool) (CheckResult, *replay.Replay) {
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
		if diagnoseMisalignment {
			res.FirstSuspicious = suspicious(data, r.FirstMisaligned.Loc)
		}
	}
	if r.Schema != nil {
		if fb := FallbackTypes(r.Schema); len(fb) > 0 {
			res.Fallbacks = fb
		}
	}
	return res, r
}

// checkFiles checks the files on up to workers goroutines, each file's
// result arriving on its own channel so that they print in argument order.
// A panic in one file's decode becomes that file's error, never a crash.
func checkFiles(paths []string, workers int) []chan CheckResult {
	results := make([]chan CheckResult, len(paths))
	slots := make(chan struct{}, max(workers, 1))
	for i, path := range paths {
		results[i] = make(chan CheckResult, 1)
		go func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] <- checkFile(path)
		}()
	}
	return results
}

func checkFile(path string) (res CheckResult) {
	defer func() {
		if p := recover(); p != nil {
			res = CheckResult{File: path, Error: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	data, err := readFile(path)
	if err != nil {
		return CheckResult{File: path, Error: err.Error()}
	}
	res, _ = Check(path, data)
	return res
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
			results := checkFiles(args, runtime.GOMAXPROCS(0))
			for i, path := range args {
				res := <-results[i]
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
				if s := res.FirstSuspicious; s != nil {
					fmt.Fprintf(errw, "%s: first suspicious: tick %d, entity %d (%s), field %s at bit %s, decoder %s: %s\n",
						path, s.Tick, s.Entity, s.Class, s.Field, bitio.Offset(s.BitOffset), s.Decoder, s.Reason)
					if s.Fix != "" {
						fmt.Fprintf(errw, "%s: what-if: %s\n", path, s.Fix)
					}
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
