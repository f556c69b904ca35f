package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/fieldpath"
)

// opJSON is one line of `ops --json`: name and code as trace --ops prints
// them.
type opJSON struct {
	Number  int       `json:"number"`
	Name    string    `json:"name"`
	Weight  int       `json:"weight"`
	Code    string    `json:"code"`
	Operand string    `json:"operand"`
	Effect  string    `json:"effect"`
	Example opExample `json:"example"`
}

type opExample struct {
	Before      []int32 `json:"before"`
	OperandBits string  `json:"operand_bits"`
	After       []int32 `json:"after"` // null for the finish op
}

func opsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ops",
		Short: "Every field-path op: its Huffman weight and code, how its operands are read, what it does to the path, and how the tree is built",
		Long: "ops lists the 40 field-path operations an entity update's paths are coded in (engine/fieldpath), by\n" +
			"their number in Valve's table: the weight the Huffman tree is built from, the code (read first bit\n" +
			"first, as trace --ops prints it), the operands in reading order, the effect on the running path,\n" +
			"and an example (the path before, the operand bits as read, the path after), then the operand forms\n" +
			"and how the tree is built.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return writeOpsJSON(cmd.OutOrStdout())
			}
			return writeOps(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `one object per op: {"number", "name", "weight", "code", "operand", "effect", "example": {"before", "operand_bits", "after"}}`)
	return cmd
}

func opsList() []opJSON {
	out := make([]opJSON, 0, fieldpath.NumOps)
	for op := fieldpath.Op(0); op < fieldpath.NumOps; op++ {
		d := fieldpath.Describe(op)
		out = append(out, opJSON{
			Number: int(op), Name: op.String(), Weight: op.Weight(), Code: fieldpath.CodeOf(op).String(),
			Operand: d.Operand, Effect: d.Effect,
			Example: opExample{Before: d.Before, OperandBits: d.ExampleBits(), After: d.After},
		})
	}
	return out
}

func writeOpsJSON(w io.Writer) error {
	for _, o := range opsList() {
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
			return err
		}
	}
	return nil
}

func writeOps(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tOP\tWEIGHT\tCODE\tOPERANDS\tEFFECT\tEXAMPLE")
	for _, o := range opsList() {
		weight := strconv.Itoa(o.Weight)
		if o.Weight == 0 {
			weight = "0 (as 1)"
		}
		ex := pathText(o.Example.Before)
		if o.Example.OperandBits != "" {
			ex += " " + o.Example.OperandBits
		}
		if o.Example.After != nil {
			ex += " → " + pathText(o.Example.After)
		} else {
			ex += " → (no path)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", o.Number, o.Name, weight, o.Code, o.Operand, o.Effect, ex)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nlast is the path's last index; push adds an index, pop removes the last. Operands, bits in read order:\n  %s\n  %s\n  %s\n  n bits: the value's bits, lowest first\n\n%s\n",
		fieldpath.UBitVarFPDoc, fieldpath.UBitVarDoc, fieldpath.VarInt32Doc, wrapText(fieldpath.TreeDoc, 100))
	return err
}

func pathText(p []int32) string {
	s := make([]string, len(p))
	for i, v := range p {
		s[i] = strconv.Itoa(int(v))
	}
	return "[" + strings.Join(s, " ") + "]"
}

// wrapText breaks s into lines of at most width bytes at spaces.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		if n > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
