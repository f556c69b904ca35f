package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/schema"
)

// CompareSide is one side of a difference, as compare --json prints it.
type CompareSide struct {
	Line      int             `json:"line,omitempty"`
	Command   *int64          `json:"command,omitempty"`
	Message   *int64          `json:"message,omitempty"`
	Path      []int32         `json:"path,omitempty"`
	Name      string          `json:"name"`
	Decoder   string          `json:"decoder,omitempty"`
	Why       string          `json:"why,omitempty"`
	BitOffset *int64          `json:"bit_offset,omitempty"`
	Bits      *int64          `json:"bits,omitempty"`
	Value     json.RawMessage `json:"value"`
	// Read is the bits the side read, as a reader takes them.
	Read string `json:"read,omitempty"`
}

// CompareDifference is one difference, as compare --json prints it.
type CompareDifference struct {
	Tick   int64        `json:"tick"`
	Entity int32        `json:"entity"`
	Class  string       `json:"class"`
	Field  string       `json:"field"`
	What   string       `json:"what"`
	Theirs *CompareSide `json:"theirs"`
	Ours   *CompareSide `json:"ours"`
}

// CompareResult is what compare --json prints.
type CompareResult struct {
	FirstDifference *CompareDifference  `json:"first_difference"`
	Compared        int                 `json:"compared"`
	Equal           int                 `json:"equal"`
	Missing         int                 `json:"missing"`
	MissingUpdates  int                 `json:"missing_updates,omitempty"`
	Extra           int                 `json:"extra"`
	Theirs          int                 `json:"theirs"`
	Ticks           int                 `json:"ticks"`
	Kinds           map[string]int      `json:"differences_by_kind"`
	Differences     []CompareDifference `json:"differences,omitempty"`
	// TickHint says why most reads part, when it is the ticks: their
	// trace counts the server's tick, or ticks shifted by a constant.
	TickHint string `json:"tick_hint,omitempty"`
}

// maxReadBits is how many bits of a read the output shows.
const maxReadBits = 96

func side(r *compare.Read, read string) *CompareSide {
	if r == nil {
		return nil
	}
	s := &CompareSide{Line: r.Line, Path: r.Path, Name: r.Name, Decoder: r.Decoder, Why: r.Why, Value: r.Value, Read: read}
	opt := func(v int64) *int64 {
		if v < 0 {
			return nil
		}
		return &v
	}
	s.Command, s.Message, s.BitOffset, s.Bits = opt(r.Command), opt(r.Message), opt(r.Offset), opt(r.Bits)
	return s
}

// JSONDifference is d as compare --json prints it.
func JSONDifference(d *compare.Difference) *CompareDifference {
	if d == nil {
		return nil
	}
	ob, tb := d.ReadBits(maxReadBits)
	return &CompareDifference{Tick: d.Tick, Entity: d.Entity, Class: d.Class, Field: d.Field, What: string(d.What),
		Theirs: side(d.Theirs, tb), Ours: side(d.Ours, ob)}
}

// CompareFiles compares a replay's decode with a parser's trace. An error
// names the one it lies in, by the names given: a broken replay is not the
// trace's fault.
func CompareFiles(data []byte, replayName string, theirs io.Reader, traceName string, aliases schema.Aliases, all bool) (compare.Result, error) {
	return compareFilesWith(data, replayName, theirs, traceName, aliases, compare.Options{All: all})
}

// compareFilesWith is CompareFiles with the comparison's options.
func compareFilesWith(data []byte, replayName string, theirs io.Reader, traceName string, aliases schema.Aliases, o compare.Options) (compare.Result, error) {
	t, err := compare.ParseTrace(theirs)
	if err != nil {
		return compare.Result{}, fmt.Errorf("%s: %w", traceName, err)
	}
	if len(t) == 0 {
		return compare.Result{}, fmt.Errorf("%s: the trace holds no reads", traceName)
	}
	res, err := compare.CompareReplay(data, aliases, t, o)
	if err != nil {
		return res, fmt.Errorf("%s: %w", replayName, err)
	}
	return res, nil
}

// compareForTUI compares a replay with the trace at path for the debugger.
func compareForTUI(data []byte, path string, aliases schema.Aliases) (*compare.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer f.Close()
	res, err := CompareFiles(data, "the replay", f, path, aliases, true) // every difference: c and C step through them
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// WriteCompare prints a comparison as text.
func WriteCompare(w io.Writer, res *compare.Result, all bool) {
	if d := res.First; d != nil {
		fmt.Fprintf(w, "first difference: tick %d, entity %d %s, %s: %s\n", d.Tick, d.Entity, d.Class, d.Field, d.What)
		fmt.Fprintf(w, "  %s\n", d.Sentence())
		writeSides(w, d)
	} else {
		fmt.Fprintln(w, "no difference")
	}
	if all && len(res.All) > 1 {
		fmt.Fprintf(w, "every difference (%d):\n", len(res.All))
		for i := range res.All {
			d := &res.All[i]
			fmt.Fprintf(w, "  tick %d entity %d %s %s: %s: %s\n", d.Tick, d.Entity, d.Class, d.Field, d.What, d.Sentence())
		}
	}
	fmt.Fprintln(w, CompareSummary(res))
	if h := res.TickHint(); h != "" {
		fmt.Fprintln(w, h)
	}
}

// CompareSummary is the closing line: reads compared and how they differ.
func CompareSummary(res *compare.Result) string {
	var kinds []string
	differ := 0
	for k, n := range res.Counts {
		if k != compare.Missing && k != compare.Extra && k != compare.MissingUpdate {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
			differ += n
		}
	}
	sort.Strings(kinds)
	ticks := "ticks"
	if res.Ticks == 1 {
		ticks = "tick"
	}
	s := fmt.Sprintf("compared %d reads at %d %s: %d equal, %d differ", res.Compared, res.Ticks, ticks, res.Equal, differ)
	if len(kinds) > 0 {
		s += " (" + strings.Join(kinds, ", ") + ")"
	}
	s += fmt.Sprintf("; %d of ours missing from theirs, %d of theirs extra", res.Missing, res.Extra)
	if res.MissingUpdates > 0 {
		s += fmt.Sprintf("; %d update%s their trace skips whole", res.MissingUpdates, map[bool]string{true: "s"}[res.MissingUpdates != 1])
	}
	return s
}

func writeSides(w io.Writer, d *compare.Difference) {
	ob, tb := d.ReadBits(maxReadBits)
	o, t := d.Ours, d.Theirs
	row := func(label string, f func(r *compare.Read) string) {
		tv, ov := "-", "-"
		if t != nil {
			tv = f(t)
		}
		if o != nil {
			ov = f(o)
		}
		fmt.Fprintf(w, "    %-10s  %-32s  %s\n", label, tv, ov)
	}
	theirs := "theirs"
	if t != nil {
		theirs = fmt.Sprintf("theirs (line %d)", t.Line)
	}
	fmt.Fprintf(w, "    %-10s  %-32s  %s\n", "", theirs, "ours")
	opt := func(v int64, f func(int64) string) string {
		if v < 0 {
			return "-"
		}
		return f(v)
	}
	row("message", func(r *compare.Read) string {
		return opt(r.Message, func(v int64) string { return fmt.Sprintf("%d", v) })
	})
	row("path", func(r *compare.Read) string {
		if r.Path == nil {
			return "-"
		}
		return fmt.Sprint(r.Path)
	})
	row("decoder", func(r *compare.Read) string { return orDash(r.Decoder) })
	row("bit offset", func(r *compare.Read) string {
		return opt(r.Offset, func(v int64) string { return fmt.Sprintf("%s (%d)", bitio.Offset(uint(v)), v) })
	})
	row("bits", func(r *compare.Read) string {
		return opt(r.Bits, func(v int64) string { return fmt.Sprintf("%d", v) })
	})
	row("value", func(r *compare.Read) string { return string(r.Value) })
	row("read", func(r *compare.Read) string {
		if r == o {
			return orDash(ob)
		}
		return orDash(tb)
	})
	if o != nil && o.Why != "" {
		fmt.Fprintf(w, "    our decoder %s: %s\n", o.Decoder, o.Why)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func compareCmd() *cobra.Command {
	var df decodeFlags
	var all, asJSON bool
	var entities []int
	cmd := &cobra.Command{
		Use:   "compare FILE THEIRS.jsonl",
		Short: "Compare a parser's own trace of its field reads with dembug's decode: the first read where they part",
		Long: "THEIRS holds one JSON object per field read, with the keys dembug trace prints: tick, entity, name\n" +
			"and value at least; bit_offset (from the start of the message's entity data), bits, decoder,\n" +
			"message, path, class and in optionally (- reads it from standard input). Exit 0 when the two\n" +
			"agree, 1 when they differ, 2 on bad input. docs/compare.md says how to write such a trace.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				fmt.Fprintf(cmd.ErrOrStderr(), "dembug: compare takes a replay and a trace, got %d arguments\n", len(args))
				return &ExitError{Code: 2}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// Their whole trace and our signon's reads are held at once
			// (live heap of the 135k-read CS2 trace: up to 88 MB); main's
			// GOGC=200, right for check, would let the heap grow to three
			// times that.
			if os.Getenv("GOGC") == "" {
				debug.SetGCPercent(100)
			}
			fail := func(err error) error {
				fmt.Fprintf(cmd.ErrOrStderr(), "dembug: %v\n", err)
				return &ExitError{Code: 2}
			}
			data, aliases, err := readWithAliases(args[0], df)
			if err != nil {
				return fail(err)
			}
			var in io.Reader = cmd.InOrStdin()
			if args[1] != "-" {
				f, err := os.Open(args[1])
				if err != nil {
					return fail(fmt.Errorf("cannot read %s: %v", args[1], err))
				}
				defer f.Close()
				in = f
			}
			o := compare.Options{All: all}
			if len(entities) > 0 {
				o.Entities = map[int32]bool{}
				for _, e := range entities {
					if e < 0 || e > 1<<24 {
						return fail(fmt.Errorf("--entities %d: an entity index is 0 or more", e))
					}
					o.Entities[int32(e)] = true
				}
			}
			res, err := compareFilesWith(data, args[0], in, args[1], aliases, o)
			if err != nil {
				return fail(err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				j := CompareResult{FirstDifference: JSONDifference(res.First), Compared: res.Compared, Equal: res.Equal,
					Missing: res.Missing, MissingUpdates: res.MissingUpdates, Extra: res.Extra, Theirs: res.Theirs, Ticks: res.Ticks, Kinds: map[string]int{}}
				for k, n := range res.Counts {
					j.Kinds[string(k)] = n
				}
				for i := range res.All {
					j.Differences = append(j.Differences, *JSONDifference(&res.All[i]))
				}
				j.TickHint = res.TickHint()
				b, _ := json.Marshal(j)
				fmt.Fprintf(out, "%s\n", b)
			} else {
				WriteCompare(out, &res, all)
			}
			if !res.Same() {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "list every difference, not only the first")
	cmd.Flags().IntSliceVar(&entities, "entities", nil, "compare only these entities (e.g. 1,5); else every update at the ticks their trace covers, one it skips whole included")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	df.add(cmd)
	return cmd
}
