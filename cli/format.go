package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/session"
)

// FormatReport is what check says about the format outside the field
// decoders: where the game was learned, where a broadcast capture stops,
// and the fields, commands and message types no definition dembug knows
// names (engine/knownfmt).
type FormatReport struct {
	// GameFrom is "file header" or "svc_ServerInfo"; empty when the game
	// is unknown, and GameUnknown then says why.
	GameFrom    string `json:"game_from,omitempty"`
	GameUnknown string `json:"game_unknown,omitempty"`
	// CaptureStops says where a broadcast capture ends.
	CaptureStops string `json:"capture_stops,omitempty"`
	// UnknownFormat lists what dembug does not know, in the order first
	// seen (empty, not absent, when there is none).
	UnknownFormat []UnknownFormat `json:"unknown_format"`
	// NewFormatSince (check --since) are the unknown-format items this
	// file has and the --since file lacks.
	NewFormatSince []UnknownFormat `json:"new_format_since,omitempty"`
	// HeaderAssumption says, for a first misaligned message that broke in
	// an update header (not a field), which header assumption the bits
	// contradict and which alternatives make it align.
	HeaderAssumption *HeaderAssumption `json:"header_assumption,omitempty"`
}

// HeaderAssumption is engine/diagnose's Assumptions as check reports it.
type HeaderAssumption struct {
	Broken string   `json:"broken,omitempty"`
	Aligns []string `json:"aligns_with"`
	Tried  []string `json:"tried"`
}

// UnknownFormat is one unknown field number, command or message type.
type UnknownFormat struct {
	Kind  string      `json:"kind"` // field, command or message
	In    string      `json:"in,omitempty"`
	ID    int         `json:"id"`
	Wire  string      `json:"wire,omitempty"`
	Value string      `json:"value,omitempty"`
	Count int         `json:"count"`
	First FormatPlace `json:"first"`

	text string // the report line, without the file name
}

// FormatPlace is where an unknown was first seen: its command's tick,
// index and byte offset (in a capture, File names the fragment file and
// Byte is the offset in it).
type FormatPlace struct {
	Tick    int32  `json:"tick"`
	Command int    `json:"command"`
	Byte    int    `json:"byte"`
	File    string `json:"file,omitempty"`
	Message int    `json:"message,omitempty"`
}

// formatReport fills the report from check's decode.
func formatReport(ch *session.Checked, since []UnknownFormat) FormatReport {
	r := ch.First
	fr := FormatReport{GameFrom: r.GameFrom(), CaptureStops: r.StopsAt(), UnknownFormat: []UnknownFormat{}}
	if r.Game() == game.Unknown {
		fr.GameUnknown = r.GameWhy()
	}
	fr.UnknownFormat = unknownFormat(r)
	fr.HeaderAssumption = headerAssumption(ch.HeaderCheck())
	if since != nil {
		old := map[string]bool{}
		for _, it := range since {
			old[it.key()] = true
		}
		for _, it := range fr.UnknownFormat {
			if !old[it.key()] {
				fr.NewFormatSince = append(fr.NewFormatSince, it)
			}
		}
	}
	return fr
}

func (u UnknownFormat) key() string { return fmt.Sprintf("%s/%s/%d", u.Kind, u.In, u.ID) }

// unknownFormat lists the decode's unknown-format items.
func unknownFormat(r *session.Pass) []UnknownFormat {
	out := []UnknownFormat{}
	for _, it := range r.Format() {
		u := UnknownFormat{Kind: it.Kind, In: it.In, ID: it.ID, Wire: it.Wire, Value: it.Value, Count: it.Count,
			First: FormatPlace{Tick: it.First.Tick, Command: it.First.Command, Byte: it.First.Byte, Message: max(it.First.Message, 0)}}
		where := fmt.Sprintf("command #%d", it.First.Command)
		if it.First.Message >= 0 {
			where += fmt.Sprintf(", message #%d", it.First.Message)
		}
		if segs := r.Segments(); segs != nil {
			u.First.File, u.First.Byte = container.SegmentAt(segs, it.First.Byte)
			where += " (" + r.Place(it.First.Byte) + ")"
		}
		tick := fmt.Sprintf("tick %d", it.First.Tick)
		if it.First.Tick < 0 {
			tick = "the signon"
		}
		u.text = fmt.Sprintf("%s — %d %s from %s, %s", it.Describe(), it.Count, it.Noun(), tick, where)
		out = append(out, u)
	}
	return out
}

// headerAssumption reports the header check of check's first misaligned
// message, decoded under the aliases the check ran with.
func headerAssumption(c *session.HeaderCheck) *HeaderAssumption {
	if c == nil {
		return nil
	}
	h := &HeaderAssumption{Broken: c.Broken, Aligns: c.Aligns, Tried: c.Tried}
	if h.Aligns == nil {
		h.Aligns = []string{}
	}
	return h
}

func sinceFormat(r *session.Pass) []UnknownFormat {
	_ = r.Run(nil) // what decoded before an error counts
	return unknownFormat(r)
}

// printFormat writes check's lines about the format: the game when it had
// to be learned from svc_ServerInfo or is unknown, where a capture stops,
// and one line per unknown-format item.
func printFormat(out, errw io.Writer, path string, fr FormatReport) {
	if fr.GameFrom == "svc_ServerInfo" {
		fmt.Fprintf(out, "%s: game from svc_ServerInfo's game directory (no file header names it)\n", path)
	}
	if fr.GameUnknown != "" {
		fmt.Fprintf(errw, "%s: game %s\n", path, fr.GameUnknown)
	}
	if fr.CaptureStops != "" {
		fmt.Fprintf(out, "%s: %s\n", path, fr.CaptureStops)
	}
	for _, u := range fr.UnknownFormat {
		fmt.Fprintf(out, "%s: format: %s\n", path, u.text)
	}
	for _, u := range fr.NewFormatSince {
		fmt.Fprintf(out, "%s: format new since --since: %s\n", path, u.text)
	}
	if h := fr.HeaderAssumption; h != nil {
		var parts []string
		if h.Broken != "" {
			parts = append(parts, "the first misaligned message breaks in an update header: "+h.Broken)
		}
		if len(h.Aligns) > 0 {
			parts = append(parts, "it aligns with "+strings.Join(h.Aligns, "; or with "))
		} else {
			parts = append(parts, "no other header assumption aligns it (tried "+strings.Join(h.Tried, "; ")+")")
		}
		fmt.Fprintf(errw, "%s: header: %s\n", path, strings.Join(parts, "; "))
	}
}
