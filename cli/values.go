package cli

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/infer"
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
		if f.Basis != infer.BasisValues {
			return errw
		}
	}
	return out
}
