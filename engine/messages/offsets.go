package messages

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// DataOffset is the byte offset in b of the data of field num, a
// length-delimited field, as the parsers here take it (the last occurrence
// wins, as ParsePacketEntities keeps the last entity_data), and its length.
// found is false when b has no such field; err is set when b is malformed.
func DataOffset(b []byte, num protowire.Number) (off, size int, found bool, err error) {
	for pos := 0; pos < len(b); {
		n, typ, tn := protowire.ConsumeTag(b[pos:])
		if tn < 0 {
			return 0, 0, false, fmt.Errorf("byte %d: %w", pos, protowire.ParseError(tn))
		}
		vn := protowire.ConsumeFieldValue(n, typ, b[pos+tn:])
		if vn < 0 {
			return 0, 0, false, fmt.Errorf("byte %d: field %d: %w", pos, n, protowire.ParseError(vn))
		}
		if n == num && typ == protowire.BytesType {
			d, ln := protowire.ConsumeBytes(b[pos+tn:])
			off, size, found = pos+tn+ln-len(d), len(d), true
		}
		pos += tn + vn
	}
	return off, size, found, nil
}

// EntityDataOffset is where svc_PacketEntities' entity_data (field 7)
// starts in the message body, in bytes, and how long it is.
func EntityDataOffset(body []byte) (off, size int, found bool, err error) {
	return DataOffset(body, 7)
}
