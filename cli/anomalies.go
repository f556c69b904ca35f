package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/session"
)

// AnomalyGroup is every anomaly of one rule in a file, as check --json
// prints it: how many, the first, and the fields they fell on.
type AnomalyGroup struct {
	Rule     string               `json:"rule"` // short name: denormal, varint-overflow, …
	Name     string               `json:"name"` // what the rule says`
	Severity string               `json:"severity"`
	Count    int                  `json:"count"`
	Example  session.Where        `json:"example"`
	Fields   []session.FieldCount `json:"fields,omitempty"`
}

// MaxAnomalyFields bounds the fields listed per group.
const MaxAnomalyFields = 20

// tallyAnomalies is TallyAnomalies of f interning strings in p.
func tallyAnomalies(f *session.File, t *session.Tally, p *decoder.Pool) error {
	return f.TallyAnomalies(t, p)
}

// anomalyGroups converts a tally for printing.
func anomalyGroups(t *session.Tally) []AnomalyGroup {
	var out []AnomalyGroup
	for _, g := range t.Groups() {
		ex := g.Example
		ex.At = bitio.Offset(ex.Bit)
		fs := g.Fields
		if len(fs) > MaxAnomalyFields {
			fs = fs[:MaxAnomalyFields]
		}
		out = append(out, AnomalyGroup{Rule: g.Rule.ID(), Name: string(g.Rule), Severity: g.Severity.String(), Count: g.Count, Example: ex, Fields: fs})
	}
	return out
}

// printAnomalies writes the grouped list: one line per rule, then its
// fields and its first occurrence.
func printAnomalies(w io.Writer, path string, gs []AnomalyGroup, muted int) {
	if len(gs) == 0 {
		fmt.Fprintf(w, "%s: no anomalies", path)
		if muted > 0 {
			fmt.Fprintf(w, " (%d muted)", muted)
		}
		fmt.Fprintln(w)
		return
	}
	for _, g := range gs {
		var fs []string
		for i, f := range g.Fields {
			if i == 5 {
				fs = append(fs, fmt.Sprintf("… %d more", len(g.Fields)-i))
				break
			}
			fs = append(fs, fmt.Sprintf("%d × %s", f.Count, f.Name))
		}
		fmt.Fprintf(w, "%s: %d × %s, %s (%s)", path, g.Count, g.Rule, g.Name, g.Severity)
		if len(fs) > 0 {
			fmt.Fprintf(w, ": %s", strings.Join(fs, ", "))
		}
		fmt.Fprintln(w)
		e := g.Example
		fmt.Fprintf(w, "%s:   first at tick %d, command %d, message %d, entity %d (%s), %s at bit %s: %s\n",
			path, e.Tick, e.Command, e.Message, e.Entity, e.Class, e.Field, e.At, e.Detail)
	}
	if muted > 0 {
		fmt.Fprintf(w, "%s: %d muted\n", path, muted)
	}
}

// newTally mutes each name given: a rule when it names one, a field
// otherwise.
func newTally(mute []string) *session.Tally {
	t := &session.Tally{}
	for _, m := range mute {
		if r, ok := session.RuleNamed(m); ok {
			t.MuteRule(r, true)
		} else {
			t.MuteField(m, true)
		}
	}
	return t
}
