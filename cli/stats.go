package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// FamilyCounts counts the schema's value-holding fields per decoder family
// (simple fields, fixed-array elements, variable-array elements).
func FamilyCounts(s *schema.Schema) map[decoder.Family]int {
	out := map[decoder.Family]int{}
	for _, f := range s.AllFields() {
		switch f.Model {
		case schema.Simple, schema.FixedArray:
			out[f.Decoder.Family]++
		case schema.VariableArray:
			out[f.Elem.Family]++
		}
	}
	return out
}

// FallbackTypes lists the base types read by the fallback decoder, with
// how many fields have each.
func FallbackTypes(s *schema.Schema) map[string]int {
	out := map[string]int{}
	for _, f := range s.AllFields() {
		switch {
		case (f.Model == schema.Simple || f.Model == schema.FixedArray) && f.Decoder.Family == decoder.FamDefault:
			out[f.Type.Base]++
		case f.Model == schema.VariableArray && f.Elem.Family == decoder.FamDefault:
			out[f.Type.Generic.Base]++
		}
	}
	return out
}

// WriteStats prints the decoder-family table of a decoded replay.
func WriteStats(w io.Writer, r *session.Pass) {
	counts := FamilyCounts(r.Schema())
	calls := r.EntityStats().Calls
	var total int64
	for _, c := range calls {
		total += c
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "decoder\tfields\tcalls\tshare\t")
	for _, fam := range decoder.Families() {
		calls := calls[fam]
		if counts[fam] == 0 && calls == 0 {
			continue
		}
		share := 0.0
		if total > 0 {
			share = 100 * float64(calls) / float64(total)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t\n", fam, counts[fam], calls, share)
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t\t\n", len(r.Schema().AllFields()), total)
	tw.Flush()
	fmt.Fprintln(w)
	WriteUnknowns(w, r.Schema())
	writeValueVerdicts(w, r)
}

func statsCmd() *cobra.Command {
	var df decodeFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats FILE",
		Short: "Decoder-family table: fields per decoder in the schema, decoder calls over the file, share of calls",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, aliases, err := readWithAliases(args[0], df)
			if err != nil {
				return err
			}
			r, runErr := runGathering(data, aliases)
			switch {
			case r == nil || r.Schema() == nil:
			case asJSON:
				b, _ := json.Marshal(StatsOf(r))
				fmt.Fprintln(cmd.OutOrStdout(), string(b))
			default:
				WriteStats(cmd.OutOrStdout(), r)
			}
			if runErr != nil {
				return fmt.Errorf("%s: %w", args[0], runErr)
			}
			return nil
		},
	}
	df.add(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: families [{family, name, fields, calls, share}], totals, unknown names")
	return cmd
}
