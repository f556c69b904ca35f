package replay

import "github.com/dembug/dembug/engine/schema"

// Schema is the schema of the decode the keyframes are taken of (its first
// keyframe's), nil before the first keyframe. Read under the keyframes'
// lock, it may be asked while the decode goes on elsewhere: the debugger's
// screen asks it while its index pass runs on a goroutine of its own.
func (ks *Keyframes) Schema() *schema.Schema {
	if ks == nil {
		return nil
	}
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if len(ks.list) == 0 {
		return nil
	}
	return ks.list[0].r.Schema
}
