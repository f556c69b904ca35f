package cli

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// loadSchema decodes commands, under aliases a, until the schema is known.
func loadSchema(data []byte, a schema.Aliases) (*session.Pass, error) {
	r, err := openWith(data, a)
	if err != nil {
		return nil, err
	}
	if err := r.Run(func(*container.Command) bool { return r.Schema() != nil }); err != nil {
		return r, err
	}
	if r.Schema() == nil {
		return r, fmt.Errorf("no DEM_SendTables command: the file has no schema")
	}
	return r, nil
}

// DecoderText names a field's decoder with its parameters.
func DecoderText(f *schema.Field) string {
	switch f.Model {
	case schema.VariableArray:
		s := "length + " + f.Elem.Describe()
		if f.Elem.Family == decoder.FamDefault {
			s += " [fallback]"
		}
		return s
	case schema.FixedTable:
		return "pointer → " + f.Serializer.Name
	case schema.VariableTable:
		return "length + " + f.Serializer.Name
	}
	s := f.Decoder.Describe()
	if f.Decoder.Family == decoder.FamDefault {
		s += " [fallback]"
	}
	if f.UnknownEncoder != "" {
		s += " [encoder " + f.UnknownEncoder + " unknown: ignored]"
	}
	if f.Alias != "" {
		s += " [--as: " + f.Alias + "]"
	}
	return s
}

// WriteSchema prints serializers whose name contains filter (all when empty).
// The writes are buffered: a Dota 2 schema is 110,000 lines of table cells,
// which written one by one to a terminal or pipe took a second of system
// calls.
func WriteSchema(out io.Writer, s *schema.Schema, filter string) int {
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	s.Complete()
	n := 0
	for _, ser := range s.Serializers {
		if filter != "" && !strings.Contains(strings.ToLower(ser.Name), strings.ToLower(filter)) {
			continue
		}
		n++
		fmt.Fprintf(w, "%s (version %d, %d fields)\n", ser.Name, ser.Version, len(ser.Fields))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  #\tfield\ttype\tencoder\tbits\trange\tflags\tdecoder")
		for i, f := range ser.Fields {
			bits, rng, flags := "-", "-", "-"
			if f.BitCountSet {
				bits = fmt.Sprint(f.BitCount)
			}
			if f.LowSet || f.HighSet {
				rng = fmt.Sprintf("%g … %g", f.Low, f.High)
			}
			if f.EncodeFlags != 0 {
				flags = decoder.FlagNames(uint32(f.EncodeFlags))
			}
			enc := f.Encoder
			if enc == "" {
				enc = "-"
			} else if f.Patched != "" {
				enc += " (patched: not in the schema)"
			}
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i, f.Name, f.VarType, enc, bits, rng, flags, DecoderText(f))
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	return n
}

func schemaCmd() *cobra.Command {
	var class string
	var diff, asJSON bool
	var df decodeFlags
	cmd := &cobra.Command{
		Use:   "schema FILE [--class NAME] | schema --diff OLD.dem NEW.dem",
		Short: "Serializers with each field's type, encoder, bit count, range, flags and chosen decoder; --diff compares two builds",
		Long: "schema FILE prints every serializer with each field's type, encoder, bit count, range, flags and\n" +
			"chosen decoder (--json: one object per serializer).\n\n" +
			"schema --diff OLD.dem NEW.dem prints the classes and fields added, removed or changed between two\n" +
			"builds, and the unknown names the new build brings. It exits 0 when the schemas are the same, 1\n" +
			"when they differ (as diff does), and 1 with a message when a file cannot be read. With --json\n" +
			"it prints one object per change, {\"kind\", \"serializer\", \"field\", \"details\"}, then one\n" +
			"summary object, {\"summary\": true, \"old_build\", \"new_build\", \"same_build\", \"changes\",\n" +
			"\"kinds\", \"new_unknown\"}.",
		Args: func(cmd *cobra.Command, args []string) error {
			if diff {
				return cobra.ExactArgs(2)(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			aliases, err := df.aliases()
			if err != nil {
				return err
			}
			if diff && asJSON {
				return runSchemaDiffJSON(cmd.OutOrStdout(), args[0], args[1], class, aliases)
			}
			if diff {
				return runSchemaDiff(cmd.OutOrStdout(), args[0], args[1], class, aliases)
			}
			data, err := readFile(args[0])
			if err != nil {
				return err
			}
			r, err := loadSchema(data, aliases)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if miss := missingAliases(aliases, r.Schema()); len(miss) > 0 {
				return fmt.Errorf("%s: %s", args[0], strings.Join(miss, "\n"))
			}
			write := WriteSchema
			if asJSON {
				write = WriteSchemaJSON
			}
			if write(cmd.OutOrStdout(), r.Schema(), class) == 0 {
				return fmt.Errorf("no serializer matches %q", class)
			}
			if class == "" && !asJSON {
				WriteUnknowns(cmd.OutOrStdout(), r.Schema())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&class, "class", "", "only serializers whose name contains this")
	cmd.Flags().BoolVar(&diff, "diff", false, "compare the schemas of two replays (OLD NEW): exit 1 when they differ")
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object per serializer: fields with type, encoder, bit_count, low, high, flags, model, family, decoder; with --diff one per change, then a summary")
	df.add(cmd)
	return cmd
}

func runSchemaDiff(w io.Writer, oldPath, newPath, filter string, a schema.Aliases) error {
	schemas, builds, err := loadPair(oldPath, newPath, a)
	if err != nil {
		return err
	}
	changes := schema.Diff(schemas[0], schemas[1])
	counts := map[schema.ChangeKind]int{}
	shown := 0
	var kept []schema.Change
	for _, c := range changes {
		if filter != "" && !strings.Contains(strings.ToLower(c.Serializer), strings.ToLower(filter)) {
			continue
		}
		counts[c.Kind]++
		shown++
		kept = append(kept, c)
	}
	printDiff(w, kept, schemas[1].Game)
	fmt.Fprintf(w, "\n%s: %d changes", buildsText(builds[0], builds[1]), shown)
	for _, k := range []schema.ChangeKind{schema.ClassAdded, schema.ClassRemoved, schema.FieldAdded, schema.FieldRemoved, schema.FieldChanged, schema.FieldMoved} {
		if counts[k] > 0 {
			fmt.Fprintf(w, ", %d %s", counts[k], k)
		}
	}
	fmt.Fprintln(w)
	// What a parser author looks at first after a patch: names the new
	// build brings that decoder choice does not know.
	var names []string
	for n := range schemas[1].NewUnknowns(schemas[0]) {
		names = append(names, string(n.Kind)+" "+n.Name)
	}
	sort.Strings(names)
	if len(names) > 0 {
		fmt.Fprintf(w, "new in build %d and unknown to decoder choice: %s (check infers what they behave as)\n", builds[1], strings.Join(names, ", "))
	}
	if shown > 0 {
		return &ExitError{Code: 1} // as diff(1): the schemas differ
	}
	return nil
}
