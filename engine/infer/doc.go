// Package infer works out what a name unknown to decoder choice (a type or
// an encoder a game patch introduced) most likely is. Each hypothesis "the
// unknown name behaves as known name K" is tested the way a parser author
// would test it by hand: decode the messages where the file stops making
// sense with every field of that name read as K (each with its own bit
// count, range, flags and encoder) and see whether they align. Decoding
// resumes from a fork of the replay taken just before the first misaligned
// message, so a hypothesis costs a few messages, not a whole file.
//
// Files:
//
//	infer.go       Fork, Score, Finding: evaluate hypotheses from a fork, pick the best
//	hypotheses.go  Hypotheses, Group, Suspects, UnknownRead: what to try, and on which names
//	values.go      ValueEvidence, FieldEvidence, NameEvidence: what decoded values suggest
//	file.go        Run, From, Checked, Options: whole-file checked decode, rounds of inference
package infer
