package cli

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/session"
)

// WriteStrings prints every written entry of the tables (of the one called
// table, when not ""), in creation order and then index order: a text table,
// or with asJSON one object per entry, {"table","index","key","value"},
// the value lowercase hex or null for none.
func WriteStrings(w io.Writer, s *stringtable.Set, table string, asJSON bool) error {
	bw := bufio.NewWriter(w)
	var tw *tabwriter.Writer
	if !asJSON {
		tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "TABLE\tINDEX\tKEY\tVALUE")
	}
	var line []byte
	for _, t := range s.Tables {
		if table != "" && t.Name != table {
			continue
		}
		t.Each(func(e stringtable.Entry) {
			if asJSON {
				line = append(line[:0], `{"table":`...)
				line = strconv.AppendQuote(line, t.Name)
				line = append(line, `,"index":`...)
				line = strconv.AppendInt(line, int64(e.Index), 10)
				line = append(line, `,"key":`...)
				line = appendJSONString(line, e.Key)
				line = append(line, `,"value":`...)
				if e.Value == nil {
					line = append(line, "null"...)
				} else {
					line = append(line, '"')
					line = hex.AppendEncode(line, e.Value)
					line = append(line, '"')
				}
				line = append(line, "}\n"...)
				bw.Write(line)
				return
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", t.Name, e.Index, textKey(e.Key), textValue(e.Value))
		})
	}
	if tw != nil {
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// textKey shows a key bare when it is plain text, quoted otherwise.
func textKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !unicode.IsPrint(r) || r == ' ' || r == '"' {
			return strconv.Quote(k)
		}
	}
	return k
}

// textValue shows a value's size and its first bytes in hex.
func textValue(v []byte) string {
	if v == nil {
		return "(none)"
	}
	const shown = 24
	h := hex.EncodeToString(v[:min(len(v), shown)])
	if len(v) > shown {
		h += "…"
	}
	return strings.TrimSpace(fmt.Sprintf("%d bytes  %s", len(v), h))
}

func stringsCmd() *cobra.Command {
	var tick int64
	var table string
	var asJSON bool
	var df decodeFlags
	cmd := &cobra.Command{
		Use:   "strings FILE",
		Short: "Print every string-table entry after all commands up to --tick (default: end of file)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := stateTickErr(cmd, &tick); err != nil {
				return err
			}
			return stateAt(args[0], cmd.ErrOrStderr(), df, tick, func(r *session.Pass, runErr error) error {
				if table != "" && runErr == nil && r.Strings().ByName(table) == nil {
					var names []string
					for _, t := range r.Strings().Tables {
						names = append(names, t.Name)
					}
					return fmt.Errorf("%s: no string table %q (the file has: %s)", args[0], table, strings.Join(names, ", "))
				}
				return WriteStrings(cmd.OutOrStdout(), r.Strings(), table, asJSON)
			})
		},
	}
	cmd.Flags().Int64Var(&tick, "tick", 0, "stop after the last command at or before this demo tick (left out: the file's end)")
	cmd.Flags().StringVar(&table, "table", "", "only the table with this name")
	cmd.Flags().BoolVar(&asJSON, "json", false, `one JSON object per entry: {"table","index","key","value"}, the value lowercase hex or null`)
	df.add(cmd)
	return cmd
}
