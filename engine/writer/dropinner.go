package writer

// DropInner copies a demo file without any inner message of type typ (a
// file written without its game event list, say). It returns the file and
// how many messages it dropped.
func DropInner(data []byte, typ uint32) ([]byte, int, error) {
	dropped := 0
	out, _, err := RewriteInner(data, func(_ int, msgs []Inner) ([]Inner, bool) {
		kept := msgs[:0]
		for _, m := range msgs {
			if m.Type == typ {
				dropped++
				continue
			}
			kept = append(kept, m)
		}
		return kept, len(kept) != len(msgs)
	})
	return out, dropped, err
}
