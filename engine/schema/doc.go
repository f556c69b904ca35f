// Package schema turns the flattened-serializer message into serializers and
// fields, parses each field's var_type, and chooses each field's decoder once,
// when the field is first used (or the schema completed).
//
// Files:
//
//	parse.go       Schema, Serializer, Field, Hot, Parse*: build the schema from the message
//	indexes.go     fast scan of serializer field indexes in the usual wire shape
//	lazy.go        ParseLazy support: Load, LazySerializer, Complete, AllFields read field lists late
//	field.go       build a field from its message on first use
//	vartype.go     VarType, ParseVarType: parse var_type strings
//	choose.go      decoder choice: the per-game rules that pick each field's decoder
//	choosememo.go  choiceMemo: share one choice among fields alike within a parse
//	patch.go       patchField: corrections every parser applies to Valve's schema
//	alias.go       Aliases, Kind, Unknown: unknown names and decoding them as known ones
//	realias.go     Realias, RealiasLazy: rebuild a schema under other aliases
//	watch.go       WatchedField, Root: number unknown-type fields for value evidence
//	step.go        Step, StepAt, StepError: one level of a field path in a serializer
//	diff.go        Diff, Change, ChangeKind: what changed between two schemas
//	diffgroup.go   GroupChanges, ChangeGroup, RepeatGroup: changes summarised by cause
package schema
