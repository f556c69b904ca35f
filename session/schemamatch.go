package session

// SchemaMatch says what of the file's schema a query matches: the first
// field whose name matches and how many serializers declare a matching
// field, over every serializer of the schema (those no class has used yet
// too, read from the message without building their fields). A search
// that finds no update can then say the field exists but no update writes
// it (its value comes from the baselines), instead of that nothing
// matches, and the count does not depend on what has been decoded so far.
func (in *Indexer) SchemaMatch(mt *Matcher) (field string, serializers int) {
	s := in.Schema()
	if s == nil || mt == nil {
		return "", 0
	}
	return s.Declaring(mt.FieldName)
}
