// Package fieldpath decodes (and encodes) the Huffman-coded operations that
// name which fields of an entity changed. Each op edits a running path such
// as [3 12 0]; every op except the finish op yields one path.
//
// Files:
//
//	ops.go      Op: the field-path operations and their Huffman weights
//	huffman.go  Code, CodeOf: the Huffman tree and the decode lookup table
//	path.go     Path, Read, OpRecord: decoding paths and applying each op
//	encode.go   Write: encoding paths with the cheapest op for each step
//	describe.go Describe, TreeDoc: each op for a learner (operands, effect, an example Read checks), how the tree is built
package fieldpath
