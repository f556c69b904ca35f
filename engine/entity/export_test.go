package entity

// SetOverlayCreates turns a full frame's create overlays on or off (they
// are on in the product) and returns a function restoring the setting.
func SetOverlayCreates(on bool) (restore func()) {
	was := overlayCreates
	overlayCreates = on
	return func() { overlayCreates = was }
}

// IsOverlay reports whether n is an overlay node.
func IsOverlay(n *Node) bool { return n != nil && n.ov != nil }
