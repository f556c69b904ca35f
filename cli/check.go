package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/session"
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
	FirstSuspicious *SuspectReport `json:"first_suspicious,omitempty"`
	Fallbacks       map[string]int `json:"fallback_types,omitempty"`
	Unknown         []UnknownName  `json:"unknown,omitempty"`
	// NewSince are the unknown names the --since build's schema lacks.
	NewSince []UnknownName `json:"new_since,omitempty"`
	Inferred []Inferred    `json:"inferred,omitempty"`
	// Rerun is the --as flags that decode with everything inferred.
	Rerun []string `json:"rerun,omitempty"`
	// ConfirmedMisaligned (with --confirm) counts the messages that still
	// misalign when the rest of the file is decoded under Rerun.
	ConfirmedMisaligned *int64 `json:"confirmed_misaligned,omitempty"`
	// Anomalies (with --json or --anomalies) are the anomaly rules'
	// findings grouped by rule, strong first.
	Anomalies []AnomalyGroup `json:"anomalies"`
	// MutedAnomalies counts what --mute left out.
	MutedAnomalies int `json:"muted_anomalies,omitempty"`
	// FormatReport: the game's source, a capture's end, unknown format.
	FormatReport
	// Warnings are --as names the file lacks (missingAliases).
	Warnings []string `json:"warnings,omitempty"`
	// Corrections are the game's corrections of decoder choice that
	// this file's fields read, each held against the file's values
	// (none with --decoders seed).
	Corrections []CorrectionReport `json:"corrections,omitempty"`
	// Parsers is how each public parser of the file's game reads it
	// against what the game wrote, and the entries that fix it.
	Parsers []forecast.Result `json:"parsers,omitempty"`

	unreadable bool // the file could not be read at all
}

// Inferred is what an unknown name most likely behaves as.
type Inferred struct {
	Unknown         string   `json:"unknown"`
	Kind            string   `json:"kind"`
	As              string   `json:"as"`
	Fields          int      `json:"fields"`
	MessagesAligned int      `json:"messages_aligned"`
	Messages        int      `json:"messages"`
	Alternatives    []string `json:"alternatives,omitempty"` // decode identically
	AlignAsWell     []string `json:"align_as_well,omitempty"`
	Evidence        string   `json:"evidence"`
	// Basis is "alignment" (the file aligns decoded so) or "values" (the
	// values read show the type read wrongly while every bit lines up);
	// Values and Reads are a values finding's count and what they read.
	Basis  string `json:"basis"`
	Values uint64 `json:"values,omitempty"`
	Reads  string `json:"reads,omitempty"`
}

// SuspectReport is where the first misaligned message most likely goes wrong.
type SuspectReport struct {
	Tick      int32  `json:"tick"`
	Command   int    `json:"command"`
	Message   int    `json:"message"`
	Entity    int32  `json:"entity"`
	Class     string `json:"class"`
	Field     string `json:"field"`
	BitOffset uint   `json:"bit_offset"`
	At        string `json:"at"` // BitOffset as byte.bit in hex (0x1a.3)
	Decoder   string `json:"decoder"`
	Family    string `json:"family,omitempty"` // the decoder family's stable name (trace's "family")
	Reason    string `json:"reason"`
	Fix       string `json:"fix,omitempty"`
	// In is "baseline" when the read is inside the class's instance
	// baseline (BitOffset then counts from the baseline's first bit).
	In string `json:"in,omitempty"`
}

// suspiciousOf is check's account of the first suspect (session's, which
// the TUI selects too).
func suspiciousOf(fs *session.Suspect, tick int32) *SuspectReport {
	if fs == nil {
		return nil
	}
	s := &SuspectReport{Tick: tick, Command: fs.At.Cmd, Message: fs.At.Msg, Entity: fs.Entity, Class: fs.Class,
		Field: fs.Name, BitOffset: fs.Bit, At: bitio.Offset(fs.Bit), Decoder: fs.Decoder, Family: fs.Family}
	s.Reason, s.Fix = fs.Account()
	if fs.Basis == session.ByInference && fs.InBaseline {
		s.In = "baseline"
	}
	return s
}

// Check decodes a whole file and, when a message misaligns, infers what
// the names decoder choice does not know behave as, and names the read that
// breaks alignment.
func Check(path string, data []byte) (CheckResult, *session.Pass) {
	return check(path, data, CheckOptions{}, true)
}

// CheckOnly decodes a whole file without the (slower) search for a suspect.
func CheckOnly(path string, data []byte) (CheckResult, *session.Pass) {
	return check(path, data, CheckOptions{}, false)
}

// CheckOptions are check's settings: aliases (--as) and the schema of an
// earlier build whose names are not suspects (--since).
type CheckOptions struct {
	Aliases schema.Aliases
	Since   *schema.Schema
	// Confirm decodes the rest of the file again under what was inferred
	// (and infers again where it misaligns further on).
	Confirm bool
	// Anomalies tallies the anomaly rules over the whole file (a second,
	// recording decode), leaving out the rules and fields in Mute.
	Anomalies bool
	Mute      []string
	// Strings is the pool the file's decodes intern string values in
	// (nil: the default pool). The command gives each file its own, so
	// that one corrupt file cannot fill the pool for the others.
	Strings *decoder.Pool
	// SinceFormat are the unknown-format items of the --since file.
	SinceFormat []UnknownFormat
	// AllParsers prints a parsers: line for every parser of the file's
	// game, not only those that misread it.
	AllParsers bool
}

// CheckWith is Check with options.
func CheckWith(path string, data []byte, o CheckOptions) (CheckResult, *session.Pass) {
	return check(path, data, o, true)
}

func check(path string, data []byte, o CheckOptions, diagnoseMisalignment bool) (CheckResult, *session.Pass) {
	start := time.Now()
	res := CheckResult{File: path, Bytes: len(data)}
	f := session.OpenFile(data, o.Aliases)
	ch, err := f.Check(session.CheckOptions{Infer: diagnoseMisalignment, Since: o.Since, Confirm: o.Confirm, Strings: o.Strings})
	if ch == nil {
		res.Error = err.Error()
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	r := ch.First
	st, es := r.Stats(), r.EntityStats()
	res.Game = r.Game().String()
	res.Build = r.Build()
	res.Commands = st.Commands
	res.LastTick = st.LastTick
	res.Messages = st.Messages
	res.PacketEntities = st.PacketEntities
	res.EntityUpdates = es.Updates
	res.Fields = es.Fields
	res.Misaligned = st.Misaligned
	res.FormatReport = formatReport(ch, o.SinceFormat)
	if ch.FirstErr != nil {
		res.Error = ch.FirstErr.Error()
	}
	if sc := r.Schema(); sc != nil {
		if fb := FallbackTypes(sc); len(fb) > 0 {
			res.Fallbacks = fb
		}
		res.Unknown = unknownNames(sc)
		res.Warnings = missingAliases(o.Aliases, sc)
		for n := range sc.NewUnknowns(o.Since) {
			res.NewSince = append(res.NewSince, UnknownName{Kind: string(n.Kind), Name: n.Name, Fields: len(sc.Carrying(n.Kind, n.Name))})
		}
		sort.Slice(res.NewSince, func(i, j int) bool { return res.NewSince[i].Name < res.NewSince[j].Name })
	}
	for _, f := range ch.Findings {
		res.Inferred = append(res.Inferred, Inferred{Unknown: f.Unknown, Kind: string(f.Kind), As: f.As, Fields: f.Fields,
			MessagesAligned: f.Aligned, Messages: f.Messages, Alternatives: f.Same, AlignAsWell: f.Tied, Evidence: f.Evidence,
			Basis: f.Basis, Values: f.Values, Reads: f.Reads})
	}
	if len(ch.Findings) > 0 {
		res.Rerun = ch.Aliases.Flags()
		if o.Confirm && ch.Last != ch.First {
			n := ch.Last.Stats().Misaligned
			res.ConfirmedMisaligned = &n
		}
	}
	res.Corrections = correctionReports(r.Corrections())
	res.Parsers = ch.Parsers
	if at, why, ok := r.FirstMisaligned(); ok {
		res.FirstMisaligned = why.Error()
		res.FirstSuspicious = suspiciousOf(ch.FirstSuspect(diagnoseMisalignment), at.Tick)
	}
	if o.Anomalies {
		t := newTally(o.Mute)
		_ = tallyAnomalies(f, t, o.Strings) // a decode error is res.Error already
		res.Anomalies = anomalyGroups(t)
		if res.Anomalies == nil {
			res.Anomalies = []AnomalyGroup{}
		}
		res.MutedAnomalies = t.MutedCount()
	}
	res.Seconds = time.Since(start).Seconds()
	return res, r
}

// checkFiles checks the files on up to workers goroutines, each file's
// result arriving on its own channel so that they print in argument order.
// A panic in one file's decode becomes that file's error, never a crash.
func checkFiles(paths []string, workers int, o CheckOptions) []chan CheckResult {
	results := make([]chan CheckResult, len(paths))
	slots := make(chan struct{}, max(workers, 1))
	for i, path := range paths {
		results[i] = make(chan CheckResult, 1)
		go func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] <- checkFile(path, o)
		}()
	}
	return results
}

func checkFile(path string, o CheckOptions) (res CheckResult) {
	defer func() {
		if p := recover(); p != nil {
			res = CheckResult{File: path, Error: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	// The file is mapped, not read onto the heap, and the pages the
	// decode has passed are dropped from the resident set as it goes:
	// memory stays bounded whatever the file's size (docs/memory.md).
	f, err := mapfile.Open(path)
	if err != nil {
		return CheckResult{File: path, Error: err.Error(), unreadable: true}
	}
	defer f.Close()
	stop := f.ReleaseEvery(100 * time.Millisecond)
	defer stop()
	// The file's strings have a pool of their own, forgotten once its
	// result is made.
	o.Strings = decoder.NewPool()
	defer o.Strings.Release()
	res, _ = CheckWith(path, f.Data, o)
	// A file that is no demo at all (no magic, and not one command
	// decoded) has its error and no summary of zeros; a stream without a
	// file header that decodes (a broadcast capture) has its summary.
	n := min(len(f.Data), len(container.Magic))
	noMagic := n == 0 || string(f.Data[:n]) != container.Magic[:n]
	res.unreadable = res.unreadable || (noMagic && res.Commands == 0)
	return res
}

func checkCmd() *cobra.Command {
	var asJSON bool
	var df decodeFlags
	var since string
	var confirm, anomalies, allParsers bool
	var mute []string
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Decode every command and entity update; one summary line per file, exit 1 on any error, misalignment, or value read wrongly",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			aliases, err := df.aliases()
			if err != nil {
				return err
			}
			if err := checkMute(mute, args[0]); err != nil {
				return err
			}
			failed := false
			o := CheckOptions{Aliases: aliases, Confirm: confirm, Anomalies: asJSON || anomalies, Mute: mute, AllParsers: allParsers}
			if since != "" {
				old, err := readFile(since)
				if err != nil {
					return err
				}
				r, err := loadSchema(old, schema.Aliases{})
				if err != nil {
					return fmt.Errorf("%s: %w", since, err)
				}
				o.Since = r.Schema()
				o.SinceFormat = sinceFormat(r)
			}
			results := checkFiles(args, runtime.GOMAXPROCS(0), o)
			for i, path := range args {
				res := <-results[i]
				bad := res.Error != "" || res.Misaligned > 0 || res.hidesValues()
				failed = failed || bad
				if asJSON {
					b, _ := json.Marshal(res)
					fmt.Fprintln(out, string(b))
				} else if !res.unreadable {
					// (a file that could not be read, or is no demo, has no summary)
					fmt.Fprintf(out, "%s: %s %s, %d commands, last tick %d, %d messages, %d entity updates, %d fields, %d misaligned, %.3fs\n",
						path, res.Game, buildText(res.Build), res.Commands, res.LastTick, res.Messages, res.EntityUpdates, res.Fields, res.Misaligned, res.Seconds)
					printFormat(out, errw, path, res.FormatReport)
				}
				if since != "" && !asJSON && !res.unreadable && res.Error == "" {
					printSince(out, path, since, res.NewSince)
				}
				if anomalies && !asJSON && !res.unreadable {
					printAnomalies(out, path, res.Anomalies, res.MutedAnomalies)
				}
				for _, w := range res.Warnings {
					fmt.Fprintf(errw, "%s: warning: %s\n", path, w)
				}
				if res.Error != "" {
					fmt.Fprintf(errw, "%s: error: %s\n", path, res.Error)
				}
				if res.FirstMisaligned != "" {
					fmt.Fprintf(errw, "%s: first misaligned: %s\n", path, res.FirstMisaligned)
				}
				if s := res.FirstSuspicious; s != nil {
					where := "at bit " + bitio.Offset(s.BitOffset)
					if s.In == "baseline" {
						where += " of its baseline"
					}
					if s.Field == "" && s.Decoder == "" {
						// Nothing in the message's fields: the message as a whole.
						fmt.Fprintf(errw, "%s: first suspicious: tick %d, message #%d: %s\n", path, s.Tick, s.Message, s.Reason)
					} else {
						fmt.Fprintf(errw, "%s: first suspicious: tick %d, entity %d (%s), field %s %s, decoder %s: %s\n",
							path, s.Tick, s.Entity, s.Class, s.Field, where, s.Decoder, s.Reason)
					}
					if s.Fix != "" {
						fmt.Fprintf(errw, "%s: what-if: %s\n", path, s.Fix)
					}
				}
				if res.Misaligned > 0 && len(res.Unknown) > 0 {
					fmt.Fprintf(errw, "%s: %d names decoder choice does not know (dembug stats lists them)", path, len(res.Unknown))
					if len(res.NewSince) > 0 {
						var names []string
						for _, n := range res.NewSince {
							names = append(names, n.Kind+" "+n.Name)
						}
						fmt.Fprintf(errw, "; new since --since: %s", strings.Join(names, ", "))
					}
					fmt.Fprintln(errw)
				}
				if !asJSON {
					printContradicted(out, path, res.Corrections)
					printParsers(out, path, res.Parsers, o.AllParsers)
				}
				for _, f := range res.Inferred {
					if f.Basis == session.BasisValues {
						if !asJSON {
							fmt.Fprintln(out, valuesLine(path, f))
						}
						continue
					}
					fmt.Fprintf(errw, "%s: inferred: %s %s behaves as %s (%d fields; %s)", path, f.Kind, f.Unknown, f.As, f.Fields, f.Evidence)
					if len(f.Alternatives) > 0 {
						fmt.Fprintf(errw, "; decodes identically as %s", strings.Join(f.Alternatives, ", "))
					}
					if len(f.AlignAsWell) > 0 {
						fmt.Fprintf(errw, "; aligns as well as %s", strings.Join(f.AlignAsWell, ", "))
					}
					fmt.Fprintln(errw)
				}
				if len(res.Rerun) > 0 {
					fmt.Fprintf(rerunTo(res.Inferred, asJSON, out, errw), "%s: rerun with: dembug check %s %s\n", path, strings.Join(res.Rerun, " "), path)
				}
				if n := res.ConfirmedMisaligned; n != nil {
					fmt.Fprintf(errw, "%s: confirmed: decoded on under those aliases, %d messages misalign\n", path, *n)
				}
			}
			if failed {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per file")
	df.add(cmd)
	cmd.Flags().StringVar(&since, "since", "", "a replay of the build before the patch: names its schema lacks are tried first")
	cmd.Flags().BoolVar(&confirm, "confirm", false, "decode the rest of the file again under what was inferred (and infer again where it misaligns further on)")
	cmd.Flags().BoolVar(&allParsers, "parsers", false, "print how every public parser of the file's game reads it (by default only those that do not read it right)")
	cmd.Flags().BoolVar(&anomalies, "anomalies", false, "list the anomaly rules' findings grouped by rule: count, fields, first occurrence (--json always has them)")
	cmd.Flags().StringArrayVar(&mute, "mute", nil, "leave an anomaly rule (by name, e.g. varint-overflow) or a field (and its elements) out of the anomalies; repeatable")
	return cmd
}
