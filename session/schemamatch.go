package session

import "github.com/dembug/dembug/engine/schema"

// SchemaMatch says what of the file's schema a query matches, for a search
// or filter that found no update: which field of which serializer declares
// a matching name, over every serializer of the schema (those no class has
// used too, read from the message without building their fields), and how
// many of the classes the file's entities have (classes, the index's
// Classes) hold one in their state, directly or in a serializer nested
// below. A field the file's classes hold is set only by baselines; one
// they do not is declared for entities this file has none of.
func (in *Indexer) SchemaMatch(mt *Matcher, classes []string) (d schema.Declared, holding int) {
	return SchemaMatch(in.Schema(), mt, classes)
}

// SchemaMatch is Indexer.SchemaMatch over s, the file's schema (nil: no
// match).
func SchemaMatch(s *schema.Schema, mt *Matcher, classes []string) (d schema.Declared, holding int) {
	if s == nil || mt == nil {
		return schema.Declared{}, 0
	}
	if d = s.Declaring(mt.FieldName); d.Field == "" {
		return d, 0
	}
	memo := map[*schema.Serializer]bool{}
	for _, c := range classes {
		if holds(s.Serializer(c), mt, memo) {
			holding++
		}
	}
	return d, holding
}

// holds reports whether ser or a serializer below it declares a field
// mt matches; memo keeps the answers (false while one is being visited,
// which a cycle the schema's check refuses could not reach anyway).
func holds(ser *schema.Serializer, mt *Matcher, memo map[*schema.Serializer]bool) bool {
	if ser == nil {
		return false
	}
	if v, seen := memo[ser]; seen {
		return v
	}
	memo[ser] = false
	ser.Load()
	for _, f := range ser.Fields {
		held := mt.FieldName(f.Name) || holds(f.Serializer, mt, memo)
		for _, p := range f.Polymorphic {
			held = held || holds(p, mt, memo)
		}
		if held {
			memo[ser] = true
			return true
		}
	}
	return false
}
