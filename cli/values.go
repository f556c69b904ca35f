package cli

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// valuesLine is check's line for a finding resting on values: what the
// type's values show, and the --as that reads them right.
func valuesLine(path string, f Inferred) string {
	what := "a signed varint read unsigned"
	switch f.As {
	case "uint64":
		what = "a 64-bit varint cut to 32 bits"
	case "int64":
		what = "a 64-bit signed varint read unsigned and cut to 32 bits"
	}
	return fmt.Sprintf("%s: values: %s %s reads like %s (%s); %s; --as %s=%s",
		path, f.Kind, f.Unknown, what, f.Evidence, f.Reads, f.Unknown, f.As)
}

// rerunTo is where check prints its rerun line: beside the values lines
// (standard output) when every finding rests on values, which the file
// decoding aligned leaves no error to report; beside the inference's
// lines (standard error) otherwise, and always with --json.
func rerunTo(fs []Inferred, asJSON bool, out, errw io.Writer) io.Writer {
	if asJSON {
		return errw
	}
	for _, f := range fs {
		if f.Basis != session.BasisValues {
			return errw
		}
	}
	return out
}

// runGathering decodes the whole file under aliases a, gathering value
// evidence on the way (package evidence).
func runGathering(data []byte, a schema.Aliases) (*session.Pass, error) {
	r, err := openWith(data, a)
	if err != nil {
		return nil, err
	}
	r.GatherEvidence()
	return r, r.Run(nil)
}

// writeValueVerdicts says, under the list of unknown names, which of them
// the decode's values show read wrongly (nothing when it gathered no
// evidence or found none).
func writeValueVerdicts(w io.Writer, r *session.Pass) {
	var lines []string
	for _, ne := range r.JudgedValues() {
		v := ne.Verdict
		lines = append(lines, fmt.Sprintf("  type %s → %s (--as %s=%s): %s", ne.Name, v.As, ne.Name, v.As, v.Evidence))
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "Their values show %d of them read wrongly while every bit lines up (the default decoder stays unless --as says otherwise; docs/patches.md):\n", len(lines))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// hidesValues reports whether the file's values show a type read wrongly
// while every bit lines up (a values finding on a name no table knows),
// or contradict a correction: check fails on either, as a patch that
// changed a type's encoding shows no other way.
func (res *CheckResult) hidesValues() bool {
	for _, f := range res.Inferred {
		if f.Basis == session.BasisValues {
			return true
		}
	}
	for _, c := range res.Corrections {
		if c.Status == evidence.Contradicted.String() {
			return true
		}
	}
	return false
}

// CorrectionReport is one entry of check --json's "corrections": a
// correction of decoder choice the file's fields read, and what the
// file's values say of it.
type CorrectionReport struct {
	Type     string `json:"type"`
	As       string `json:"as"`
	Status   string `json:"status"` // confirmed, unchecked or contradicted
	Evidence string `json:"evidence"`
}

func correctionReports(cs []session.CorrectionCheck) []CorrectionReport {
	var out []CorrectionReport
	for _, c := range cs {
		out = append(out, CorrectionReport{Type: c.Correction.Type, As: c.Correction.As, Status: c.Status.String(), Evidence: c.Text})
	}
	return out
}

// printContradicted says which corrections the file's values contradict.
func printContradicted(w io.Writer, path string, cs []CorrectionReport) {
	for _, c := range cs {
		if c.Status == evidence.Contradicted.String() {
			fmt.Fprintf(w, "%s: correction: type %s is read as %s (the game's reading, docs/corrections.md), but this file's values contradict it (%s); --decoders seed reads it the seed's way, --as %s=KNOWN another\n",
				path, c.Type, c.As, c.Evidence, c.Type)
		}
	}
}
