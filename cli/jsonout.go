package cli

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// SchemaField is one field as schema --json prints it.
type SchemaField struct {
	Index    int      `json:"index"`
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Encoder  string   `json:"encoder,omitempty"`
	Patched  string   `json:"patched,omitempty"` // the correction that set the encoder, when the schema has none
	BitCount *int32   `json:"bit_count,omitempty"`
	Low      *float32 `json:"low,omitempty"`
	High     *float32 `json:"high,omitempty"`
	Flags    string   `json:"flags,omitempty"`
	Model    string   `json:"model"`  // simple, fixed_array, fixed_table, variable_array, variable_table
	Family   string   `json:"family"` // the decoder's family (of an array's elements), or "table"
	Decoder  string   `json:"decoder"`
}

// SchemaSerializer is one serializer as schema --json prints it.
type SchemaSerializer struct {
	Serializer string        `json:"serializer"`
	Version    int32         `json:"version"`
	Fields     []SchemaField `json:"fields"`
}

var modelIDs = map[schema.Model]string{
	schema.Simple: "simple", schema.FixedArray: "fixed_array", schema.FixedTable: "fixed_table",
	schema.VariableArray: "variable_array", schema.VariableTable: "variable_table",
}

// WriteSchemaJSON prints one JSON object per serializer whose name
// contains filter (all when empty).
func WriteSchemaJSON(w io.Writer, s *schema.Schema, filter string) int {
	s.Complete()
	n := 0
	enc := json.NewEncoder(w)
	for _, ser := range s.Serializers {
		if filter != "" && !strings.Contains(strings.ToLower(ser.Name), strings.ToLower(filter)) {
			continue
		}
		n++
		out := SchemaSerializer{Serializer: ser.Name, Version: ser.Version, Fields: make([]SchemaField, 0, len(ser.Fields))}
		for i, f := range ser.Fields {
			sf := SchemaField{Index: i, Name: f.Name, Type: f.VarType, Encoder: f.Encoder, Patched: f.Patched, Model: modelIDs[f.Model], Decoder: DecoderText(f)}
			if f.BitCountSet {
				sf.BitCount = &f.BitCount
			}
			if f.LowSet {
				sf.Low = &f.Low
			}
			if f.HighSet {
				sf.High = &f.High
			}
			if f.EncodeFlags != 0 {
				sf.Flags = decoder.FlagNames(uint32(f.EncodeFlags))
			}
			switch {
			case f.Model == schema.VariableArray && f.Elem != nil:
				sf.Family = f.Elem.Family.ID()
			case f.Model == schema.VariableTable || f.Model == schema.FixedTable && f.Decoder.Family != decoder.FamPolyPointer:
				sf.Family = "table"
			case f.Decoder != nil:
				sf.Family = f.Decoder.Family.ID()
			}
			out.Fields = append(out.Fields, sf)
		}
		enc.Encode(out)
	}
	return n
}

// FamilyStat is one decoder family's row of stats --json.
type FamilyStat struct {
	Family string  `json:"family"`
	Name   string  `json:"name"`
	Fields int     `json:"fields"`
	Calls  int64   `json:"calls"`
	Share  float64 `json:"share"` // of all calls, in percent
}

// Stats is stats --json's object.
type Stats struct {
	Families    []FamilyStat  `json:"families"`
	TotalFields int           `json:"total_fields"`
	TotalCalls  int64         `json:"total_calls"`
	Unknown     []UnknownName `json:"unknown"`
}

// StatsOf gathers the decoder-family table of a decoded replay.
func StatsOf(r *session.Pass) Stats {
	counts := FamilyCounts(r.Schema())
	st := Stats{TotalFields: len(r.Schema().AllFields()), Families: []FamilyStat{}, Unknown: unknownNames(r.Schema())}
	allCalls := r.EntityStats().Calls
	for _, c := range allCalls {
		st.TotalCalls += c
	}
	for _, fam := range decoder.Families() {
		calls := allCalls[fam]
		if counts[fam] == 0 && calls == 0 {
			continue
		}
		share := 0.0
		if st.TotalCalls > 0 {
			share = 100 * float64(calls) / float64(st.TotalCalls)
		}
		st.Families = append(st.Families, FamilyStat{Family: fam.ID(), Name: fam.String(), Fields: counts[fam], Calls: calls, Share: share})
	}
	if st.Unknown == nil {
		st.Unknown = []UnknownName{}
	}
	return st
}
