package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// runTo opens data and decodes, under aliases a, every command whose tick
// is ≤ tick (all of them when tick < 0). Decoding errors are returned with
// what was decoded. first is, when the decode stopped before the game's
// first command (tick is before every game tick), that command's tick; -1
// otherwise.
func runTo(data []byte, tick int64, a schema.Aliases) (r *session.Pass, first int64, err error) {
	r, err = openWith(data, a)
	if err != nil {
		return nil, -1, err
	}
	var game inGame
	played := false // a game command was decoded
	for {
		if next, ok := r.NextTick(); tick >= 0 && ok && bool(game) && int64(next) > tick {
			if !played {
				return r, int64(next), nil
			}
			return r, -1, nil
		}
		c, err := r.Step()
		if err == io.EOF {
			return r, -1, nil
		}
		if err != nil {
			return r, -1, err
		}
		played = played || bool(game)
		game.after(c.Kind)
	}
}

// inGame says whether the game's commands have begun: a tick bounds a
// decode only from there, as the signon commands of a client's POV demo
// carry a tick later than the game's first ones (4005 where the game
// starts at 1900).
type inGame bool

// after notes a decoded command (container.Kind.EndsSignon).
func (g *inGame) after(k container.Kind) {
	if k.EndsSignon() {
		*g = true
	}
}

// WriteEntities prints one JSON object per live entity.
func WriteEntities(w io.Writer, t *session.Table) error {
	bw := bufio.NewWriter(w)
	var line []byte
	var err error
	session.EachEntity(t, func(e session.LiveEntity) {
		if err != nil {
			return
		}
		line = append(line[:0], `{"index":`...)
		line = strconv.AppendInt(line, int64(e.Index), 10)
		line = append(line, `,"serial":`...)
		line = strconv.AppendUint(line, uint64(e.Serial), 10)
		line = append(line, `,"class":`...)
		line = strconv.AppendQuote(line, e.Class)
		line = append(line, `,"fields":{`...)
		first := true
		e.Fields(func(name string, f *schema.Field, v decoder.Value) {
			if !first {
				line = append(line, ',')
			}
			first = false
			line = strconv.AppendQuote(line, name)
			line = append(line, ':')
			line = v.AppendJSONAs(line, valueDecoder(f, name))
		})
		line = append(line, "}}\n"...)
		_, err = bw.Write(line)
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

func entitiesCmd() *cobra.Command {
	var tick int64
	var df decodeFlags
	cmd := &cobra.Command{
		Use:   "entities FILE",
		Short: "Print every live entity after all commands up to --tick (default: end of file), one JSON object per line",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := stateTickErr(cmd, &tick); err != nil {
				return err
			}
			return stateAt(args[0], cmd.ErrOrStderr(), df, tick, func(r *session.Pass, _ error) error {
				return WriteEntities(cmd.OutOrStdout(), r.Entities())
			})
		},
	}
	cmd.Flags().Int64Var(&tick, "tick", 0, "stop after the last command at or before this demo tick (left out: the file's end)")
	df.add(cmd)
	return cmd
}

// tickFlagErr says why the value v of a tick flag is no demo tick: those
// run from 0 to 2^31-1 (a negative one was read as "the end", a larger one
// cut to 32 bits).
func tickFlagErr(flag string, v int64) error {
	if v < 0 || v > math.MaxInt32 {
		return fmt.Errorf("%s %d: a demo tick is from 0 to %d", flag, v, math.MaxInt32)
	}
	return nil
}

// stateTickErr checks entities' and strings' --tick when given, and sets
// it to -1, the file's end, when it is left out.
func stateTickErr(cmd *cobra.Command, tick *int64) error {
	if !cmd.Flags().Changed("tick") {
		*tick = -1 // the file's end
		return nil
	}
	if err := tickFlagErr("--tick", *tick); err != nil {
		return fmt.Errorf("%v (leave --tick out for the state at the file's end)", err)
	}
	return nil
}

// stateAt decodes the file at path up to tick and hands write the state
// there (with the decode's error, if it stopped early): what decoded is
// written before the error that stopped it is returned. A tick past the
// file's last is the state at its end, one before its game's first the
// signon's, and a note on errw says so.
func stateAt(path string, errw io.Writer, df decodeFlags, tick int64, write func(r *session.Pass, runErr error) error) error {
	data, aliases, err := readWithAliases(path, df)
	if err != nil {
		return err
	}
	r, first, runErr := runTo(data, tick, aliases)
	switch {
	case r != nil && runErr == nil && r.Done() && tick > int64(r.Stats().LastTick):
		fmt.Fprintf(errw, "dembug: note: %s: tick %d is past the end: this is the state at the file's last tick, %d\n", path, tick, r.Stats().LastTick)
	case first >= 0:
		fmt.Fprintf(errw, "dembug: note: %s: tick %d is before the game's first tick, %d: this is the state the signon leaves\n", path, tick, first)
	}
	if r != nil {
		if err := write(r, runErr); err != nil {
			return err
		}
	}
	if runErr != nil {
		return fmt.Errorf("%s: %w", path, runErr)
	}
	if _, m, ok := r.FirstMisaligned(); ok {
		// The state is written (it holds up to there), but from that
		// message on its values are reads at wrong bits: exit 1, as check.
		fmt.Fprintf(errw, "dembug: %s: the state is not to be trusted from the first misaligned message on: %v (dembug check says what an unknown name behaves as)\n", path, m)
		return &ExitError{Code: 1}
	}
	return nil
}
