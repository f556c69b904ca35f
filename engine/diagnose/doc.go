// Package diagnose finds where a decode most likely went wrong. Nothing in
// the bit stream marks where a value ends, so a wrong decoder shows only
// indirectly: values that no game would send. Each rule (rules.go) names
// one such symptom and scores how strongly it points at a misread.
//
// Files:
//
//	rules.go      Rule, Anomaly, Field: the symptom rules and their scores
//	severity.go   Severity, Grade: strong or weak, and Report's accessors
//	suspect.go    Message, Report, Suspect, Threshold: a message's first suspect
//	tally.go      Tally, Group, Where: anomalies counted over a file; rule IDs
//	locate.go     Case, Capture, Locate, Fix: find the change that aligns a message
//	variants.go   FamilyVariants: other decoders of a field's own family to try
//	bitsearch.go  the search for a dropped or added bit (BitWindow)
//	plausible.go  scores how plausible a repair's values are, to rank repairs
//	header.go     Assumption, HeaderBreak: when the update header itself breaks
package diagnose
