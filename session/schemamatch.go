package session

// SchemaMatch says what of the file's schema a query matches: the first
// field whose name matches and how many serializers declare a matching
// field, among the serializers whose lists have been read (on first use:
// those of the classes decoded so far and the serializers nested in them;
// all of them once an inference has completed the schema). A search that
// finds no update can then say the field exists but no update writes it
// (its value comes from the baselines), instead of that nothing matches.
func (in *Indexer) SchemaMatch(mt *Matcher) (field string, serializers int) {
	s := in.Schema()
	if s == nil || mt == nil {
		return "", 0
	}
	for _, ser := range s.Serializers {
		found := false
		for _, f := range ser.Fields {
			if mt.FieldName(f.Name) {
				if field == "" {
					field = f.Name
				}
				found = true
			}
		}
		if found {
			serializers++
		}
	}
	return field, serializers
}
